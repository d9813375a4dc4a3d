import { afterAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { type DatabaseConfig, migrateDatabase, revertAllMigrations, waitUntilMigrated } from '@app/database';
import { createInventoryDataSource } from '@apps/inventory';
import { createLoyaltyDataSource } from '@apps/loyalty';
import { createOrdersDataSource } from '@apps/orders';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, waitFor } from '@tools/local-stack';

const { serverUrl } = testInfrastructure();

const apps: [string, (config: DatabaseConfig) => DataSource, string[]][] = [
  ['orders', createOrdersDataSource, ['orders', 'order_items', 'products', 'outbox_messages', 'inbox_messages', 'idempotency_keys']],
  [
    'inventory',
    createInventoryDataSource,
    ['stock_items', 'reservations', 'loyalty_commands', 'cancelled_orders', 'outbox_messages', 'inbox_messages'],
  ],
  ['loyalty', createLoyaltyDataSource, ['accruals', 'reversals', 'idempotency_keys']],
];

async function tables(dataSource: DataSource): Promise<string[]> {
  const rows: { name: string }[] = await dataSource.query(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'typeorm_migrations' ORDER BY 1",
  );
  return rows.map((row) => row.name);
}

describe.each(apps)('%s migrations', (app, createDataSource, expectedTables) => {
  let database: string | undefined;

  afterAll(async () => {
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when applied, reverted and applied again, then the schema is created, removed and created identically', async () => {
    database = await createTestDatabase(serverUrl, `migrate_${app}`);
    const config = { DATABASE_URL: serverUrl, DATABASE_NAME: database, DATABASE_POOL_SIZE: 2 };

    const applied = await migrateDatabase(createDataSource(config), serverUrl, database);
    expect(applied.length).toBeGreaterThan(0);

    const dataSource = await createDataSource(config).initialize();
    try {
      const created = await tables(dataSource);
      expect(created).toEqual([...expectedTables].sort());
      expect(await dataSource.showMigrations()).toBe(false);

      expect(await revertAllMigrations(dataSource)).toBe(applied.length);
      expect(await tables(dataSource)).toEqual([]);
      expect(await dataSource.showMigrations()).toBe(true);

      const reapplied = await dataSource.runMigrations({ transaction: 'each' });
      expect(reapplied.map((migration) => migration.name)).toEqual(applied);
      expect(await tables(dataSource)).toEqual(created);
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
