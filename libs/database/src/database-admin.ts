import pg from 'pg';
import { databaseUrl } from './database-url.js';
import type { DatabaseSsl } from './database-ssl.js';

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function assertSafeName(name: string): void {
  // Identifiers cannot be bound as parameters, so they are checked instead.
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe database name "${name}"`);
}

async function withMaintenanceClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>, ssl: DatabaseSsl = false): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres'), ssl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the database when missing. Returns true when it was created. `ssl`: as the app's pool (default plaintext). */
export async function ensureDatabaseExists(serverUrl: string, name: string, ssl: DatabaseSsl = false): Promise<boolean> {
  assertSafeName(name);
  return withMaintenanceClient(
    serverUrl,
    async (client) => {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return false;
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } catch (error) {
        // Two processes racing to create the same database: the loser sees duplicate_database.
        if ((error as { code?: string }).code === '42P04') return false;
        throw error;
      }
      return true;
    },
    ssl,
  );
}

/** Drops a database, ending its other sessions first. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  assertSafeName(name);
  await withMaintenanceClient(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}
