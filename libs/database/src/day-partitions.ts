import { VACUUM_BY_ROW_COUNT } from './vacuum-by-row-count.migration.js';

/** Anything that runs SQL: a QueryRunner in a migration, an EntityManager in a transaction, a DataSource. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export const DAY_MS = 86_400_000;

/** The first millisecond of the UTC day that holds `ms`. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * The smallest UUIDv7 minted at `ms`: its 48 bits of milliseconds, every other bit zero. Postgres
 * orders uuids byte by byte, so every `timeOrderedUuid()` minted from `ms` on sorts at or after it.
 */
export function firstUuidAt(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** `outbox_messages_p20261208`: the partition of `table` that holds the ids of one UTC day. */
export function dayPartitionName(table: string, dayMs: number): string {
  return `${table}_p${new Date(dayMs).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The partition that catches every id outside the days' partitions. */
export function defaultPartitionName(table: string): string {
  return `${table}_default`;
}

/** The day a partition named by {@link dayPartitionName} holds; undefined for any other name. */
export function dayOfPartition(table: string, partition: string): number | undefined {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(partition);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : undefined;
}

/** The names of `table`'s partitions. */
export async function partitionsOf(db: Queryable, table: string): Promise<string[]> {
  const rows: { name: string }[] = await db.query(
    'SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1',
    [table],
  );
  return rows.map((row) => row.name);
}

/**
 * What a new partition gets that Postgres does not copy from its parent: the storage settings of a
 * table that grows with traffic (autovacuum by row count) and the parent's column statistics targets.
 */
async function tunePartition(db: Queryable, parent: string, partition: string): Promise<void> {
  const settings = Object.entries(VACUUM_BY_ROW_COUNT).map(([name, value]) => `${name} = ${value}`);
  await db.query(`ALTER TABLE ${partition} SET (${settings.join(', ')})`);
  const columns: { name: string; target: number }[] = await db.query(
    `SELECT a.attname AS name, a.attstattarget AS target FROM pg_attribute a
     WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attstattarget >= 0 ORDER BY a.attnum`,
    [parent],
  );
  if (columns.length === 0) return;
  const assignments = columns.map((column) => `ALTER COLUMN "${column.name}" SET STATISTICS ${column.target}`);
  await db.query(`ALTER TABLE ${partition} ${assignments.join(', ')}`);
}

/** Creates the default partition of `table`, tuned as every other partition. */
export async function createDefaultPartition(db: Queryable, table: string): Promise<void> {
  const name = defaultPartitionName(table);
  await db.query(`CREATE TABLE ${name} PARTITION OF ${table} DEFAULT`);
  await tunePartition(db, table, name);
}

/**
 * Creates the partition of `table` (range-partitioned by the time-ordered uuid `key`) for the UTC day
 * of `dayMs`, unless it exists; returns whether it created it. The day's rows that the default
 * partition caught meanwhile move into it first: Postgres refuses to attach a range that rows of
 * the default partition fall in. Run it in a transaction, so the rows move and the range attaches
 * together.
 */
export async function createDayPartition(db: Queryable, table: string, key: string, dayMs: number): Promise<boolean> {
  const name = dayPartitionName(table, dayMs);
  const [{ exists }]: { exists: boolean }[] = await db.query('SELECT to_regclass($1) IS NOT NULL AS exists', [name]);
  if (exists) return false;
  const [from, to] = [firstUuidAt(dayMs), firstUuidAt(dayMs + DAY_MS)];
  await db.query(`CREATE TABLE ${name} (LIKE ${table})`);
  await db.query(
    `WITH moved AS (DELETE FROM ${defaultPartitionName(table)} WHERE ${key} >= $1 AND ${key} < $2 RETURNING *) INSERT INTO ${name} SELECT * FROM moved`,
    [from, to],
  );
  await db.query(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
  await tunePartition(db, table, name);
  return true;
}

/** Reads cheap at any size: how many whole days ahead of today have a partition, and the default partition's rows (counted up to `countUpTo`). */
export async function partitionHealth(
  db: Queryable,
  table: string,
  nowMs: number = Date.now(),
  countUpTo = 10_000,
): Promise<{ daysAhead: number; defaultRows: number }> {
  const days = new Set((await partitionsOf(db, table)).map((name) => dayOfPartition(table, name)));
  let daysAhead = -1;
  while (days.has(dayOf(nowMs) + (daysAhead + 1) * DAY_MS)) daysAhead += 1;
  const [{ n }]: { n: number }[] = await db.query(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${defaultPartitionName(table)} LIMIT ${Math.floor(countUpTo)}) AS bounded`,
  );
  return { daysAhead, defaultRows: n };
}
