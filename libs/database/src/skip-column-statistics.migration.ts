import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertMigrationTimestamp, SQL_NAME } from './migration-factory-checks.js';

/** Where the apps' first such migration sorts: after `vacuumByRowCount`'s, whose tables it tunes. */
const FIRST_TIMESTAMP = 1764460800910;

/**
 * The migration that stops `ANALYZE` from sampling `columns` (by table): message bodies, headers and
 * stored answers that the app writes and reads back whole but never filters, joins or sorts on, so
 * their statistics are never read by a plan. Autoanalyze samples up to 30,000 rows of a table every
 * time a tenth of it changed, and on a table of ~350-byte JSON documents the JSON columns are most
 * of that work, once a minute per table that grows with orders, in bursts beside the orders in
 * flight (docs/decisions/0006-json-columns-without-statistics.md). Recorded as `SkipColumnStatistics<timestamp>`; columns added later get a
 * migration of their own, with the timestamp of that migration.
 */
export function skipColumnStatistics(
  columns: Readonly<Record<string, readonly string[]>>,
  timestamp: number = FIRST_TIMESTAMP,
): new () => MigrationInterface {
  const pairs = Object.entries(columns).flatMap(([table, names]) => names.map((column) => [table, column] as const));
  const invalid = pairs.filter(([table, column]) => !SQL_NAME.test(table) || !SQL_NAME.test(column) || column.includes('.'));
  if (pairs.length === 0 || invalid.length > 0) {
    throw new Error(
      `skipColumnStatistics needs columns by table (lower-case names, tables optionally schema-qualified); got ${JSON.stringify(invalid.map((pair) => pair.join('.')))}`,
    );
  }
  assertMigrationTimestamp('skipColumnStatistics', timestamp);
  // One ALTER TABLE per table: its columns in one statement, one lock.
  const statement = (target: number) =>
    Object.entries(columns).map(
      ([table, names]) => `ALTER TABLE ${table} ${names.map((column) => `ALTER COLUMN ${column} SET STATISTICS ${target}`).join(', ')}`,
    );
  return class SkipColumnStatistics implements MigrationInterface {
    name = `SkipColumnStatistics${timestamp}`;

    async up(queryRunner: QueryRunner): Promise<void> {
      for (const sql of statement(0)) await queryRunner.query(sql);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      // -1: the server's default_statistics_target again.
      for (const sql of statement(-1)) await queryRunner.query(sql);
    }
  };
}
