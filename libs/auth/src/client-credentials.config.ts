import { env, type EnvConfig } from '@libs/config';

/**
 * How a service obtains its own access token to call another API: the OAuth 2.0 client-credentials
 * grant (RFC 6749 §4.4), as any OIDC provider offers it. All required: a service that calls a
 * partner without credentials would only be refused there, one command at a time.
 */
export const clientCredentialsEnv = {
  AUTH_CLIENT_TOKEN_URL: env.url({
    description: "The provider's token endpoint (`token_endpoint` of its discovery document). Use https outside this machine",
    protocols: ['https', 'http'],
  }),
  AUTH_CLIENT_ID: env.string({ description: "This service's client id at the provider; the `sub` of its tokens" }),
  AUTH_CLIENT_SECRET: env.string({
    description: "This service's client secret (a secret: inject it from a secret store, never commit it)",
  }),
  AUTH_CLIENT_SCOPE: env.string({
    description: 'Scopes requested, space-separated; the partner refuses a token without the one it needs',
    default: 'loyalty:accruals:write',
  }),
};

export type ClientCredentialsConfig = EnvConfig<typeof clientCredentialsEnv>;
