import { dropDatabase, ensureDatabaseExists } from '@app/database';
import { uniqueName } from './unique-name.js';

/** Refuses any name without `test`: a test helper must never be able to drop a real database. */
export function assertTestDatabaseName(name: string): void {
  if (!name.includes('test')) {
    throw new Error(`Refusing to touch database "${name}": test database names must contain "test"`);
  }
}

/** A fresh, empty database for one test file; call {@link dropTestDatabase} after. */
export async function createTestDatabase(serverUrl: string, prefix: string): Promise<string> {
  const name = uniqueName(`${prefix}_test`);
  assertTestDatabaseName(name);
  await ensureDatabaseExists(serverUrl, name);
  return name;
}

export async function dropTestDatabase(serverUrl: string, name: string): Promise<void> {
  assertTestDatabaseName(name);
  await dropDatabase(serverUrl, name);
}
