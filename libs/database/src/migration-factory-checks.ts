// What the migration factories (vacuumByRowCount, skipColumnStatistics) check before they write SQL.

/** A lower-case SQL name, optionally schema-qualified: what a factory interpolates into its statements. */
export const SQL_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

/** Throws, naming `factory`, unless `timestamp` is one TypeORM can order by: the last 13 digits of a migration's name. */
export function assertMigrationTimestamp(factory: string, timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || String(timestamp).length !== 13) {
    throw new Error(`${factory} needs a 13-digit millisecond timestamp; got ${timestamp}`);
  }
}
