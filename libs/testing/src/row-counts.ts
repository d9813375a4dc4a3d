import pg from 'pg';
import { databaseUrl } from '@app/database';
import { assertTestDatabaseName } from './test-database.js';

/** Runs one query against a test database on its own short-lived connection. */
export async function queryTestDatabase<R extends Record<string, unknown> = Record<string, unknown>>(
  serverUrl: string,
  database: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  assertTestDatabaseName(database);
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, database), application_name: 'test-query' });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** `{ table: rows }` for each table, read in one statement (one snapshot). */
export async function countRows<T extends string>(serverUrl: string, database: string, tables: readonly T[]): Promise<Record<T, number>> {
  for (const table of tables) {
    // Identifiers cannot be bound as parameters, so they are checked instead.
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Unsafe table name "${table}"`);
  }
  const sql = `SELECT ${tables.map((table) => `(SELECT count(*)::int FROM ${table}) AS "${table}"`).join(', ')}`;
  const [row] = await queryTestDatabase(serverUrl, database, sql);
  return row as Record<T, number>;
}
