import { env, type EnvConfig, type LaptopSetting } from '@libs/config';

/** The `iss` of the development token issuer of the local stack (tools/local-stack): its key is in a file anyone with the clone can read. */
export const DEV_ISSUER_NAME = 'urn:local-stack:dev-issuer';

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
  AUTH_JWKS_HTTP_ALLOWED: env.boolean({
    description:
      'Allow AUTH_JWKS_URL over plain http under NODE_ENV=production, on purpose (logged at every start): anyone on the path can swap the keys and mint any token',
    default: false,
  }),
  AUTH_DEV_ISSUER_ALLOWED: env.boolean({
    description: `Allow AUTH_ISSUER=${DEV_ISSUER_NAME} (the local development issuer) under NODE_ENV=production, on purpose (logged at every start): its signing key is a file on a developer's machine`,
    default: false,
  }),
};

/** What token verification reads of {@link authEnv}; the production opt-outs are read at start-up only. */
export type AuthConfig = Omit<EnvConfig<typeof authEnv>, 'AUTH_JWKS_HTTP_ALLOWED' | 'AUTH_DEV_ISSUER_ALLOWED'>;

/** What {@link authEnv} allows only on a laptop; see `refuseLaptopSettings` of `@libs/config`. */
export function authLaptopSettings(config: EnvConfig<typeof authEnv>): LaptopSetting[] {
  return [
    {
      present: new URL(config.AUTH_JWKS_URL).protocol === 'http:',
      risk: 'AUTH_JWKS_URL uses http: anyone on the path can swap the keys and mint any token',
      optOut: 'AUTH_JWKS_HTTP_ALLOWED',
      allowed: config.AUTH_JWKS_HTTP_ALLOWED,
    },
    {
      present: config.AUTH_ISSUER === DEV_ISSUER_NAME,
      risk: `AUTH_ISSUER is the development issuer (${DEV_ISSUER_NAME}), whose key anyone with the clone's state file holds`,
      optOut: 'AUTH_DEV_ISSUER_ALLOWED',
      allowed: config.AUTH_DEV_ISSUER_ALLOWED,
    },
  ];
}
