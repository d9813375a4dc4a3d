import pg from 'pg';
import type { DatabaseConfig } from './database.config.js';
import { databaseSsl } from './database-ssl.js';
import { databaseUrl } from './database-url.js';

/** A connection attempt that gets no answer is given up after this, unless the app sets its own. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * SQLSTATEs of a refused login: a wrong password (28P01) or a role, database or host that
 * pg_hba.conf does not admit (28000). Waiting does not change either.
 */
const LOGIN_REFUSED = new Set(['28P01', '28000']);

/**
 * Resolves when the app's database answers `SELECT 1` on one connection opened the way its pool
 * opens them (server, database, TLS, connect timeout), and throws what pg met otherwise.
 */
export async function probePostgres(config: DatabaseConfig): Promise<void> {
  const client = new pg.Client({
    connectionString: databaseUrl(config.DATABASE_URL, config.DATABASE_NAME),
    ssl: databaseSsl(config),
    connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS ?? DEFAULT_CONNECT_TIMEOUT_MS,
  });
  // An error after connect (the server going away) is the caller's to see through the query.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The reason waiting cannot fix, when `error` is one: the server refused the login in
 * `DATABASE_URL`. A refused connection, a timeout or a server still starting is worth waiting for.
 */
export function postgresLoginRefused(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !LOGIN_REFUSED.has(code)) return undefined;
  return `DATABASE_URL: the server refused its user and password for DATABASE_NAME (${(error as Error).message}); check both`;
}
