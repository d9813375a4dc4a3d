import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertMigrationTimestamp, SQL_NAME } from './migration-factory-checks.js';

/** Where the apps' first such migration sorts: after `skipColumnStatistics`' and every table it tunes. */
const FIRST_TIMESTAMP = 1764460800930;

/**
 * The statistics target of every column of a table that grows with traffic: `ANALYZE` samples
 * 300 rows per unit of the largest target among a table's columns, so 10 is a sample of 3,000 rows
 * where the server's default (100) takes 30,000. The plans on these tables read unique keys,
 * partial indexes (`published_at IS NULL`, `status = 'PENDING'`) and time ranges, which a sample of
 * 3,000 estimates well enough; a larger one only costs. Autoanalyze runs every time a tenth of a
 * table changed, so on a table that starts empty and grows with orders it runs about once a
 * minute, each time sampling more pages of a larger table, in bursts beside the orders in flight
 * (docs/decisions/0005-growing-tables-analysed-from-a-sample.md has the soaks).
 */
export const SAMPLED_STATISTICS_TARGET = 10;

/** What `pg_attribute` says of a column that keeps the server's default target (-1 up to Postgres 16, NULL from 17). */
const AT_DEFAULT_TARGET = '(a.attstattarget IS NULL OR a.attstattarget < 0)';

/**
 * The migration that sets {@link SAMPLED_STATISTICS_TARGET} on every column of `tables` that has the
 * server's default target when it runs (a column whose statistics are skipped, target 0, keeps it),
 * recorded as `SampleStatistics<timestamp>`. Columns added later get a migration of their own, with
 * the timestamp of that migration: `sampleStatistics(['shipments'], 1764460801000)`.
 */
export function sampleStatistics(tables: readonly string[], timestamp: number = FIRST_TIMESTAMP): new () => MigrationInterface {
  const invalid = tables.filter((table) => !SQL_NAME.test(table));
  if (tables.length === 0 || invalid.length > 0) {
    throw new Error(`sampleStatistics needs table names (lower case, optionally schema-qualified); got ${JSON.stringify(invalid)}`);
  }
  assertMigrationTimestamp('sampleStatistics', timestamp);
  /** The user columns of `table` whose target matches `condition`. */
  const columnsOf = async (queryRunner: QueryRunner, table: string, condition: string): Promise<string[]> => {
    const rows: { name: string }[] = await queryRunner.query(
      `SELECT a.attname AS name FROM pg_attribute a
       WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND ${condition} ORDER BY a.attnum`,
      [table],
    );
    return rows.map((row) => String(row.name));
  };
  // One ALTER TABLE per table: its columns in one statement, one lock.
  const setTarget = async (queryRunner: QueryRunner, table: string, columns: string[], target: number) => {
    if (columns.length === 0) return;
    const assignments = columns.map((column) => `ALTER COLUMN "${column.replace(/"/g, '""')}" SET STATISTICS ${target}`);
    await queryRunner.query(`ALTER TABLE ${table} ${assignments.join(', ')}`);
  };
  return class SampleStatistics implements MigrationInterface {
    name = `SampleStatistics${timestamp}`;

    async up(queryRunner: QueryRunner): Promise<void> {
      for (const table of tables)
        await setTarget(queryRunner, table, await columnsOf(queryRunner, table, AT_DEFAULT_TARGET), SAMPLED_STATISTICS_TARGET);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      // -1: the server's default_statistics_target again.
      for (const table of tables) {
        await setTarget(queryRunner, table, await columnsOf(queryRunner, table, `a.attstattarget = ${SAMPLED_STATISTICS_TARGET}`), -1);
      }
    }
  };
}
