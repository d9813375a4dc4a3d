import type { QueryRunner } from 'typeorm';
import { createDayPartition, createDefaultPartition, DAY_MS, dayOf } from './day-partitions.js';
import { VACUUM_BY_ROW_COUNT } from './vacuum-by-row-count.migration.js';

/** How a table becomes range-partitioned by the day of its time-ordered id, and back. */
export interface TableToPartition {
  table: string;
  /** The UUIDv7 column the table is partitioned by; part of every unique constraint of `createPartitioned`. */
  key: string;
  /** The statements that create the partitioned table (`... PARTITION BY RANGE (key)`) and its indexes. */
  createPartitioned: string[];
  /** The statements that create the table unpartitioned, as its first migrations did (for `down`). */
  createUnpartitioned: string[];
  /** A condition on the rows moved first (the pending ones). */
  movedFirst: string;
  /** A `GENERATED ALWAYS AS IDENTITY` column whose values are kept and whose sequence continues after them. */
  identity?: string;
  /** Partitions created after today's. */
  daysAhead: number;
}

/** The oldest day given a partition when the table is converted: older rows go to the default partition. */
const MAX_DAYS_BACK = 60;

/**
 * Moves every row of `from` into the table of the same shape `to`, the `movedFirst` rows first, keeping
 * identity values, and continues `to`'s identity sequence after them. Both tables exist.
 */
async function moveRows(queryRunner: QueryRunner, spec: TableToPartition, from: string, to: string): Promise<void> {
  const columns: { name: string }[] = await queryRunner.query(
    'SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum',
    [from],
  );
  const list = columns.map((column) => `"${column.name}"`).join(', ');
  for (const condition of [spec.movedFirst, `NOT (${spec.movedFirst})`]) {
    await queryRunner.query(`INSERT INTO ${to} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM ${from} WHERE ${condition}`);
  }
  if (spec.identity) {
    await queryRunner.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${spec.identity}) FROM ${to}), 0) + 1, false)`,
      [to, spec.identity],
    );
  }
}

/**
 * The UTC days (first millisecond) of the UUIDv7 values of `key` in `table`: version 7 in the 13th
 * hex digit, milliseconds in the first 12. Other ids carry no time and go to the default partition.
 */
async function daysOfTimeOrderedKeys(queryRunner: QueryRunner, table: string, key: string): Promise<number[]> {
  const rows: { day: string }[] = await queryRunner.query(
    `SELECT DISTINCT (('x' || substr(replace(${key}::text, '-', ''), 1, 12))::bit(48)::bigint / ${DAY_MS}) * ${DAY_MS} AS day
     FROM ${table} WHERE substr(${key}::text, 15, 1) = '7'`,
  );
  return rows.map((row) => Number(row.day));
}

/** Renames `table` and every index and identity sequence it owns with `suffix`, freeing their names. */
async function setAside(queryRunner: QueryRunner, table: string, suffix: string, identity?: string): Promise<string> {
  const indexes: { name: string }[] = await queryRunner.query(
    'SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass',
    [table],
  );
  for (const index of indexes) await queryRunner.query(`ALTER INDEX ${index.name} RENAME TO ${index.name}${suffix}`);
  if (identity) {
    const [{ sequence }]: { sequence: string }[] = await queryRunner.query(
      "SELECT split_part(pg_get_serial_sequence($1, $2), '.', 2) AS sequence",
      [table, identity],
    );
    await queryRunner.query(`ALTER SEQUENCE ${sequence} RENAME TO ${sequence}${suffix}`);
  }
  await queryRunner.query(`ALTER TABLE ${table} RENAME TO ${table}${suffix}`);
  return `${table}${suffix}`;
}

/** The statistics targets set on `from`'s columns, set on `to`'s too. */
async function copyStatisticsTargets(queryRunner: QueryRunner, from: string, to: string): Promise<void> {
  const columns: { name: string; target: number }[] = await queryRunner.query(
    'SELECT attname AS name, attstattarget AS target FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0',
    [from],
  );
  if (columns.length === 0) return;
  await queryRunner.query(`ALTER TABLE ${to} ${columns.map((c) => `ALTER COLUMN "${c.name}" SET STATISTICS ${c.target}`).join(', ')}`);
}

/**
 * Converts `spec.table`, rows in place, into a table range-partitioned by day of `spec.key`: the old
 * table is set aside, the partitioned one created with the same columns and indexes, given a default
 * partition and one partition per day its time-ordered ids were minted (at most {@link MAX_DAYS_BACK}
 * back) and per day from today to `daysAhead` after, filled (pending rows first) and the old table dropped. TypeORM runs a
 * migration in one transaction, so a failure leaves the table as it was.
 */
export async function partitionExistingTable(queryRunner: QueryRunner, spec: TableToPartition, nowMs: number = Date.now()): Promise<void> {
  const old = await setAside(queryRunner, spec.table, '_unpartitioned', spec.identity);
  for (const statement of spec.createPartitioned) await queryRunner.query(statement);
  await copyStatisticsTargets(queryRunner, old, spec.table);
  await createDefaultPartition(queryRunner, spec.table);
  const today = dayOf(nowMs);
  const days = new Set(await daysOfTimeOrderedKeys(queryRunner, old, spec.key));
  for (let day = today; day <= today + spec.daysAhead * DAY_MS; day += DAY_MS) days.add(day);
  const kept = [...days].filter((day) => day >= today - MAX_DAYS_BACK * DAY_MS && day <= today + spec.daysAhead * DAY_MS);
  for (const day of kept.sort((a, b) => a - b)) await createDayPartition(queryRunner, spec.table, spec.key, day);
  await moveRows(queryRunner, spec, old, spec.table);
  await queryRunner.query(`DROP TABLE ${old}`);
}

/** The reverse of {@link partitionExistingTable}: one unpartitioned table again, with every row. */
export async function unpartitionTable(queryRunner: QueryRunner, spec: TableToPartition): Promise<void> {
  const partitioned = await setAside(queryRunner, spec.table, '_partitioned', spec.identity);
  for (const statement of spec.createUnpartitioned) await queryRunner.query(statement);
  const settings = Object.entries(VACUUM_BY_ROW_COUNT).map(([name, value]) => `${name} = ${value}`);
  await queryRunner.query(`ALTER TABLE ${spec.table} SET (${settings.join(', ')})`);
  await copyStatisticsTargets(queryRunner, partitioned, spec.table);
  await moveRows(queryRunner, spec, partitioned, spec.table);
  await queryRunner.query(`DROP TABLE ${partitioned}`);
}
