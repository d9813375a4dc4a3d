import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { migrateDatabase } from '@libs/database';
import { testAuthEnv, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { loyaltyEnv } from '../loyalty.config.js';
import { createLoyaltyDataSource } from '../loyalty.data-source.js';

const { serverUrl } = testInfrastructure();
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const mintedAt = (id: string) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('TimeOrderedAccrualIds1764460800920 (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'loyalty_ordered_ids');
    const config = loadConfig(loyaltyEnv, { ...testAuthEnv('loyalty'), DATABASE_URL: serverUrl, DATABASE_NAME: database });
    dataSource = await createLoyaltyDataSource(config).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when accruals and reversals are inserted without an id, then each gets a UUID version 7 carrying the millisecond it was written in, in order', async () => {
    const orders = Array.from({ length: 20 }, () => randomUUID());
    const before = Date.now();
    const ids: string[] = [];
    for (const orderId of orders) {
      const [row]: { id: string }[] = await dataSource.query(
        "INSERT INTO accruals (customer_id, order_id, points) VALUES ('c', $1, 5) RETURNING id",
        [orderId],
      );
      ids.push(row.id);
    }
    const [reversal]: { id: string }[] = await dataSource.query(
      "INSERT INTO reversals (customer_id, order_id, points) VALUES ('c', $1, 5) RETURNING id",
      [orders[0]],
    );
    const after = Date.now();

    for (const id of [...ids, reversal.id]) expect(id).toMatch(UUID_V7);
    // Postgres' clock and this process' are the same machine's; a millisecond of slack for rounding.
    for (const id of [...ids, reversal.id]) expect(mintedAt(id)).toBeGreaterThanOrEqual(before - 1);
    for (const id of [...ids, reversal.id]) expect(mintedAt(id)).toBeLessThanOrEqual(after + 1);
    expect(ids.map(mintedAt)).toEqual(ids.map(mintedAt).sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('when the migration is reverted, then new ids are random again (version 4) and the function is gone', async () => {
    // Back to just before this migration, whatever later ones the app has by now.
    const applied = async () =>
      (await dataSource.query('SELECT 1 FROM typeorm_migrations WHERE name = $1', ['TimeOrderedAccrualIds1764460800920'])).length > 0;
    expect(await applied()).toBe(true);
    while (await applied()) await dataSource.undoLastMigration();
    try {
      const [row]: { id: string }[] = await dataSource.query(
        "INSERT INTO accruals (customer_id, order_id, points) VALUES ('c', $1, 5) RETURNING id",
        [randomUUID()],
      );
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
      expect(await dataSource.query("SELECT 1 FROM pg_proc WHERE proname = 'time_ordered_uuid'")).toEqual([]);
    } finally {
      await migrateDatabase(dataSource, serverUrl, database);
    }
  });
});
