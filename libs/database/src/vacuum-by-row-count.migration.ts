import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertMigrationTimestamp, SQL_NAME } from './migration-factory-checks.js';

/** Where the apps' first such migration sorts: after every table it tunes exists. */
const FIRST_TIMESTAMP = 1764460800900;

/**
 * The storage parameters that make autovacuum start on a fixed number of changed rows instead of a
 * share of the table. Postgres' defaults wait for 20 % of a table's rows to be dead (or inserted)
 * before vacuuming it, so on a table that grows with every order the dead tuples between vacuums
 * grow with the table (docs/decisions/0004-autovacuum-by-row-count.md). With a row count, the dead tuples between vacuums are bounded by that count plus what the
 * rate adds in one autovacuum round (`autovacuum_naptime`), whatever the table's size.
 */
export const VACUUM_BY_ROW_COUNT = {
  autovacuum_vacuum_scale_factor: 0,
  autovacuum_vacuum_threshold: 1000,
  // Insert-only tables (inbox, idempotency keys) have no dead tuples to wait for; vacuuming them by
  // inserted rows keeps their visibility map current, so index-only reads stay index-only.
  autovacuum_vacuum_insert_scale_factor: 0,
  autovacuum_vacuum_insert_threshold: 1000,
} as const;

const settings = Object.entries(VACUUM_BY_ROW_COUNT);

/**
 * The migration that sets {@link VACUUM_BY_ROW_COUNT} on `tables`, the tables of an app that grow
 * with its traffic (outbox, inbox, commands, idempotency keys, the app's own per-order tables; not
 * small catalogues such as stock, which Postgres' defaults already vacuum often), recorded as
 * `VacuumByRowCount<timestamp>`. A table added later gets its settings from a migration of its own,
 * with the timestamp of that migration: `vacuumByRowCount(['shipments'], 1764460801000)` (a second
 * migration under the first one's name would be taken as applied and never run).
 */
export function vacuumByRowCount(tables: readonly string[], timestamp: number = FIRST_TIMESTAMP): new () => MigrationInterface {
  const invalid = tables.filter((table) => !SQL_NAME.test(table));
  if (tables.length === 0 || invalid.length > 0) {
    throw new Error(`vacuumByRowCount needs table names (lower case, optionally schema-qualified); got ${JSON.stringify(invalid)}`);
  }
  assertMigrationTimestamp('vacuumByRowCount', timestamp);
  return class VacuumByRowCount implements MigrationInterface {
    name = `VacuumByRowCount${timestamp}`;

    async up(queryRunner: QueryRunner): Promise<void> {
      const assignments = settings.map(([name, value]) => `${name} = ${value}`).join(', ');
      for (const table of tables) await queryRunner.query(`ALTER TABLE ${table} SET (${assignments})`);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      const names = settings.map(([name]) => name).join(', ');
      for (const table of tables) await queryRunner.query(`ALTER TABLE ${table} RESET (${names})`);
    }
  };
}
