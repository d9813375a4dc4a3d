import pg from 'pg';
import { databaseUrl, dropDatabase, ensureDatabaseExists } from '@libs/database';
import { uniqueName } from '../unique-name.js';

/**
 * Refuses any name without `test`: a helper that creates and drops throw-away databases (for a test
 * or a benchmark run) must never be able to touch a real one.
 */
export function assertTestDatabaseName(name: string): void {
  if (!name.includes('test')) {
    throw new Error(`Refusing to touch database "${name}": test database names must contain "test"`);
  }
}

/**
 * The databases this process created and has not dropped: what an interrupted run (a Ctrl-C of the
 * benchmark) still has to drop, wherever in its code the signal found it.
 */
const undropped = new Map<string, string>();

/** A fresh, empty database named `<prefix>_test_<unique>`, for one test file or benchmark; call {@link dropTestDatabase} after. */
export async function createTestDatabase(serverUrl: string, prefix: string): Promise<string> {
  const name = uniqueName(`${prefix}_test`);
  assertTestDatabaseName(name);
  // Remembered before it exists: a signal during CREATE DATABASE still finds it (DROP ... IF EXISTS).
  undropped.set(name, serverUrl);
  await ensureDatabaseExists(serverUrl, name);
  return name;
}

export async function dropTestDatabase(serverUrl: string, name: string): Promise<void> {
  assertTestDatabaseName(name);
  await dropDatabase(serverUrl, name);
  undropped.delete(name);
}

/** Drops every database {@link createTestDatabase} made in this process and nobody dropped yet; returns their names. */
export async function dropUndroppedTestDatabases(): Promise<string[]> {
  const names = [...undropped.keys()];
  for (const name of names) await dropTestDatabase(undropped.get(name)!, name);
  return names;
}

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
