import { afterAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import {
  type DatabaseConfig,
  migrateDatabase,
  revertAllMigrations,
  SAMPLED_STATISTICS_TARGET,
  VACUUM_BY_ROW_COUNT,
  waitUntilMigrated,
} from '@libs/database';
import { createInventoryDataSource } from '@apps/inventory';
import { createLoyaltyDataSource } from '@apps/loyalty';
import { createOrdersDataSource } from '@apps/orders';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, waitFor } from '@tools/local-stack';

const { serverUrl } = testInfrastructure();

const apps: [string, (config: DatabaseConfig) => DataSource, string[]][] = [
  [
    'orders',
    createOrdersDataSource,
    ['orders', 'order_items', 'products', 'outbox_messages', 'inbox_messages', 'inbox_work_marks', 'idempotency_keys'],
  ],
  [
    'inventory',
    createInventoryDataSource,
    ['stock_items', 'reservations', 'loyalty_commands', 'cancelled_orders', 'outbox_messages', 'inbox_messages', 'inbox_work_marks'],
  ],
  ['loyalty', createLoyaltyDataSource, ['accruals', 'reversals', 'idempotency_keys']],
];

/**
 * Tables that do not grow with traffic, so Postgres' default autovacuum thresholds (a share of the
 * table) already vacuum them often: every other table must vacuum by row count.
 */
const CATALOGUES: Record<string, string> = {
  products: 'the price list: one row per SKU, updated by operators',
  stock_items: 'one row per SKU; its many updates make a small table cross the default threshold every few seconds',
};

/**
 * Tables that never grow past one row per partition, with storage parameters of their own.
 * `inbox_work_marks`: updated twice per batch; room on the page keeps every update HOT.
 */
const FIXED_SIZE: Record<string, string[]> = { inbox_work_marks: ['fillfactor=50'] };

/**
 * Each table's storage parameters as `name=value` strings (pg_class.reloptions), [] when none. A
 * partitioned table has none of its own: it is reported with its partitions' parameters when they
 * all have the same, and with every distinct set otherwise (which the comparisons below refuse).
 */
async function storageParameters(dataSource: DataSource): Promise<Record<string, string[]>> {
  const rows: { name: string; options: string[] | null }[] = await dataSource.query(
    `SELECT COALESCE(parent.relname, c.relname) AS name, c.reloptions AS options FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class parent ON parent.oid = i.inhparent
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'typeorm_migrations'`,
  );
  const byTable = new Map<string, Set<string>>();
  for (const row of rows) {
    const sets = byTable.get(row.name) ?? new Set<string>();
    sets.add(JSON.stringify([...(row.options ?? [])].sort()));
    byTable.set(row.name, sets);
  }
  return Object.fromEntries(
    [...byTable].map(([name, sets]) => [name, sets.size === 1 ? (JSON.parse([...sets][0]) as string[]) : [...sets]]),
  );
}

/** What `columns` can select by: a type, statistics skipped, or the server's default statistics target kept. */
const STATISTICS_FILTERS = {
  'without statistics': 'a.attstattarget = 0',
  'at the default statistics target': '(a.attstattarget IS NULL OR a.attstattarget < 0)',
  sampled: `a.attstattarget = ${SAMPLED_STATISTICS_TARGET}`,
} as const;

/** `table.column` of every column whose type is one of `types`, or that matches a statistics filter; a partition's columns count as its table's. */
async function columns(dataSource: DataSource, filter: { types: string[] } | keyof typeof STATISTICS_FILTERS): Promise<string[]> {
  const condition = typeof filter === 'string' ? STATISTICS_FILTERS[filter] : 'format_type(a.atttypid, NULL) = ANY($1)';
  const rows: { name: string }[] = await dataSource.query(
    `SELECT DISTINCT COALESCE(parent.relname, c.relname) || '.' || a.attname AS name FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class parent ON parent.oid = i.inhparent
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND ${condition} ORDER BY 1`,
    typeof filter === 'string' ? [] : [filter.types],
  );
  return rows.map((row) => row.name);
}

/** `table.column` of every column whose default mints a random UUID, which would land anywhere in its index. */
async function randomUuidDefaults(dataSource: DataSource): Promise<string[]> {
  const rows: { name: string }[] = await dataSource.query(
    `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
     WHERE table_schema = 'public' AND column_default LIKE '%gen_random_uuid()%' ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

/** The tables, a partitioned one once (its partitions are not listed). */
async function tables(dataSource: DataSource): Promise<string[]> {
  const rows: { name: string }[] = await dataSource.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'typeorm_migrations' ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

describe.each(apps)('%s migrations', (app, createDataSource, expectedTables) => {
  let database: string | undefined;

  afterAll(async () => {
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when applied, reverted and applied again, then the schema is created (every table that grows with traffic vacuumed by row count and analysed from a sample, no JSON document analysed, no random id default), removed and created identically', async () => {
    database = await createTestDatabase(serverUrl, `migrate_${app}`);
    const config = { DATABASE_URL: serverUrl, DATABASE_NAME: database, DATABASE_POOL_SIZE: 2 };

    const applied = await migrateDatabase(createDataSource(config), serverUrl, database);
    expect(applied.length).toBeGreaterThan(0);

    const dataSource = await createDataSource(config).initialize();
    try {
      const created = await tables(dataSource);
      expect(created).toEqual([...expectedTables].sort());
      // The tables pruned by dropping a day whole (docs/decisions/0020-retention-by-partitions.md).
      const partitioned: { name: string }[] = await dataSource.query(
        "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'p' ORDER BY 1",
      );
      expect(partitioned.map((row) => row.name)).toEqual(created.filter((name) => ['inbox_messages', 'outbox_messages'].includes(name)));
      expect(await dataSource.showMigrations()).toBe(false);

      // Every table that grows with traffic vacuums by row count, not by a share of its size.
      const byRowCount = Object.entries(VACUUM_BY_ROW_COUNT)
        .map(([name, value]) => `${name}=${value}`)
        .sort();
      const parameters = await storageParameters(dataSource);
      const growing = created.filter((table) => !(table in CATALOGUES) && !(table in FIXED_SIZE));
      expect(Object.fromEntries(growing.map((table) => [table, parameters[table]]))).toEqual(
        Object.fromEntries(growing.map((table) => [table, byRowCount])),
      );
      for (const table of created.filter((name) => name in CATALOGUES)) expect(parameters[table]).toEqual([]);
      for (const table of created.filter((name) => name in FIXED_SIZE)) expect(parameters[table]).toEqual(FIXED_SIZE[table]);

      // A JSON document is written and read back whole, never filtered on: ANALYZE skips it.
      const withoutStatistics = await columns(dataSource, 'without statistics');
      const documents = await columns(dataSource, { types: ['json', 'jsonb'] });
      expect(documents.length).toBeGreaterThan(0);
      expect(withoutStatistics).toEqual(expect.arrayContaining(documents));

      // A table that grows with traffic is analysed from a sample: none of its columns keeps the
      // server's default target (a sample ten times as large), and the catalogues keep it.
      const atDefault = await columns(dataSource, 'at the default statistics target');
      expect(atDefault.filter((name) => growing.includes(name.split('.')[0]))).toEqual([]);
      const sampled = await columns(dataSource, 'sampled');
      expect(sampled.length).toBeGreaterThan(0);
      expect(sampled.filter((name) => !growing.includes(name.split('.')[0]))).toEqual([]);

      // Ids the database mints are time-ordered (time_ordered_uuid()), as those the apps mint are.
      expect(await randomUuidDefaults(dataSource)).toEqual([]);

      expect(await revertAllMigrations(dataSource)).toBe(applied.length);
      expect(await tables(dataSource)).toEqual([]);
      expect(await dataSource.showMigrations()).toBe(true);

      const reapplied = await dataSource.runMigrations({ transaction: 'each' });
      expect(reapplied.map((migration) => migration.name)).toEqual(applied);
      expect(await tables(dataSource)).toEqual(created);
      expect(await storageParameters(dataSource)).toEqual(parameters);
      expect(await columns(dataSource, 'without statistics')).toEqual(withoutStatistics);
      expect(await columns(dataSource, 'sampled')).toEqual(sampled);
    } finally {
      await dataSource.destroy();
    }
  });
});

describe('waiting for migrations (what a replica runs before it starts: migrate.js --wait)', () => {
  let database: string | undefined;

  afterAll(async () => {
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when the database has no schema yet and another process migrates it, then the wait ends only after the migration, and times out while none runs', async () => {
    database = await createTestDatabase(serverUrl, 'migrate_wait');
    const config = { DATABASE_URL: serverUrl, DATABASE_NAME: database, DATABASE_POOL_SIZE: 2 };
    const reasons: string[] = [];

    // Nothing migrates: the wait gives up with a message that says what it waited for.
    await expect(waitUntilMigrated(createOrdersDataSource(config), { timeoutMs: 600, intervalMs: 100 })).rejects.toThrow(
      /not migrated after 600 ms \(migrations pending\)/,
    );

    let settled = false;
    const waiter = createOrdersDataSource(config);
    const waiting = waitUntilMigrated(waiter, {
      intervalMs: 100,
      timeoutMs: 60_000,
      onPending: (reason) => reasons.push(reason),
    }).finally(() => (settled = true));
    await waitFor(() => reasons.length >= 2, { timeoutMs: 10_000, description: 'the wait to check twice' });
    expect(settled).toBe(false);

    await migrateDatabase(createOrdersDataSource(config), serverUrl, database);
    await waiting;
    await waiter.destroy();
    expect(reasons.every((reason) => reason === 'migrations pending')).toBe(true);
  });
});
