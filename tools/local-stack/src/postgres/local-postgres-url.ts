import { LocalDefaults } from '../environment/local-defaults.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);
const DEFAULT_USER = new URL(LocalDefaults.DATABASE_URL).username;

/**
 * Whether `serverUrl` has the shape of the local default (`LocalDefaults.DATABASE_URL`): user
 * `postgres` without a password, on this machine (127.0.0.1 or localhost), no query options; any
 * port. Only such a URL may be answered by starting the embedded server when nothing listens there:
 * a URL with another host, user, password or options names a server of the user's, and one that
 * does not answer is an error to report, never a reason to start a different server.
 */
export function isLocalDefaultPostgresUrl(serverUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'postgres:' || url.protocol === 'postgresql:') &&
    LOOPBACK_HOSTS.has(url.hostname) &&
    url.username === DEFAULT_USER &&
    url.password === '' &&
    url.search === ''
  );
}

/** The port of `serverUrl`, Postgres' 5432 when it names none. */
export function postgresPort(serverUrl: string): number {
  return Number(new URL(serverUrl).port || 5432);
}
