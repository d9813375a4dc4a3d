import pg from 'pg';
import { databaseUrl } from './database-url.js';

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function assertSafeName(name: string): void {
  // Identifiers cannot be bound as parameters, so they are checked instead.
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe database name "${name}"`);
}

async function withMaintenanceClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the database when missing. Returns true when it was created. */
export async function ensureDatabaseExists(serverUrl: string, name: string): Promise<boolean> {
  assertSafeName(name);
  return withMaintenanceClient(serverUrl, async (client) => {
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
  });
}

/** Drops a database, ending its other sessions first. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  assertSafeName(name);
  await withMaintenanceClient(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}
