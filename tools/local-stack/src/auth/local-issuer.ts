import { join } from 'node:path';
import { envDefault } from '@libs/config';
import { findRepoRoot } from '../environment/repo-root.js';
import type { ServiceName } from '../services/service-catalog.js';
import { devIssuerEnv } from './dev-issuer.env.js';
import { DevIssuer } from './dev-issuer.js';

/** Where `npm start` serves the development issuer unless `DEV_ISSUER_PORT` says otherwise. */
const DEV_ISSUER_DEFAULT_PORT = Number(envDefault(devIssuerEnv.DEV_ISSUER_PORT));

/** The development issuer's state file (key pair, client secret): `DEV_ISSUER_FILE`, else `.local/dev-issuer/issuer.json`. */
export function devIssuerFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEV_ISSUER_FILE || join(findRepoRoot(), '.local', 'dev-issuer', 'issuer.json');
}

/** The port `npm start` serves the development issuer's JWKS and token endpoint on. */
export function devIssuerPort(env: NodeJS.ProcessEnv = process.env): number {
  const port = Number(env.DEV_ISSUER_PORT || DEV_ISSUER_DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`DEV_ISSUER_PORT must be a port, got "${env.DEV_ISSUER_PORT}"`);
  return port;
}

/**
 * The issuer the local tools (`npm start`, `npm run token`, `npm run demo`) use: the development
 * issuer of this clone (created on first use), and the `AUTH_*` variables each app gets (its own
 * `AUTH_AUDIENCE`). When the environment already names a provider (`AUTH_JWKS_URL` set, e.g. in
 * `.env`), those variables are kept as they are, the same for every app: the apps trust that
 * provider, and tokens must come from it.
 */
export async function localIssuer(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ issuer: DevIssuer; authEnv: Record<ServiceName, Record<string, string>>; external: boolean }> {
  const issuer = await DevIssuer.loadOrCreate(devIssuerFile(env));
  if (env.AUTH_JWKS_URL) {
    const given = Object.fromEntries(
      Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith('AUTH_') && !!entry[1]),
    );
    return { issuer, authEnv: { orders: given, inventory: given, loyalty: given }, external: true };
  }
  return { issuer, authEnv: issuer.appEnvs(`http://127.0.0.1:${devIssuerPort(env)}`), external: false };
}
