import { env, type EnvConfig } from '@libs/config';

/**
 * How an app verifies bearer tokens: against any OAuth 2.0 / OIDC provider's JWKS. All three are
 * required (no default, no switch that turns verification off): a deployment that forgets one does
 * not start. Locally, `npm start` and the tests fill them in for the development issuer.
 */
export const authEnv = {
  AUTH_ISSUER: env.string({
    description:
      'Expected `iss` of every bearer token: the OIDC provider issuer (e.g. https://login.example.com/); tokens from any other issuer are 401',
  }),
  AUTH_AUDIENCE: env.string({
    description:
      'Expected `aud` of every bearer token: the identifier this API alone is registered under at the provider (one per API, never shared: a token for another API of the system is then 401 here); others are 401',
  }),
  AUTH_JWKS_URL: env.url({
    description:
      "The provider's JSON Web Key Set (its `jwks_uri`); fetched on first use and cached, refetched when a token names an unknown key. Use https outside this machine",
    protocols: ['https', 'http'],
  }),
  AUTH_CLOCK_TOLERANCE_S: env.integer({
    description: 'Seconds of clock skew tolerated on `exp` and `nbf`; larger accepts tokens expired that much longer',
    default: 5,
    min: 0,
    max: 300,
  }),
};

export type AuthConfig = EnvConfig<typeof authEnv>;
