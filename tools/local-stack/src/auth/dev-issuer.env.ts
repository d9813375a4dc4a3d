import { env } from '@libs/config';

/**
 * What the development token issuer reads (`npm start` in-process, `npm run token`, compose's
 * `dev-issuer`): where it listens and where it keeps its key pair. Rendered into docs/configuration.md.
 */
export const devIssuerEnv = {
  DEV_ISSUER_PORT: env.port({ description: 'Port the development issuer serves its JWKS and token endpoint on', default: 3010 }),
  DEV_ISSUER_HOST: env.string({
    description: 'Interface the development issuer binds to (scripts/dev-issuer.ts; 0.0.0.0 in a container)',
    default: '127.0.0.1',
  }),
  DEV_ISSUER_FILE: env.string({
    description: "The issuer's state file (key pair, client secret; secret); empty: <repo>/.local/dev-issuer/issuer.json",
    default: '',
  }),
  DEV_ISSUER_CLIENT_SECRET: env.string({
    description: "Fixes the service client's secret (secret), so compose can hand the same one to inventory; empty: the state file's",
    default: '',
  }),
};
