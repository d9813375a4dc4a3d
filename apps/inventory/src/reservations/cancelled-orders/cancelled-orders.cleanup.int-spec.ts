import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { migrateDatabase, RetentionJob } from '@libs/database';
import { testAuthEnv, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { createInventoryDataSource } from '../../inventory.data-source.js';
import { inventoryEnv } from '../../inventory.config.js';
import { cancelledOrdersRetention } from './cancelled-orders.cleanup.js';

const { serverUrl, brokers } = testInfrastructure();
const DAY_MS = 24 * 3_600_000;

describe('cancelledOrdersRetention: the retention job (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let cleanup: RetentionJob;

  const remember = (ageMs: number) =>
    dataSource.query(
      `INSERT INTO cancelled_orders (order_id, cancel_message_id, cancelled_at)
       VALUES (gen_random_uuid(), gen_random_uuid(), now() - make_interval(secs => $1::float / 1000))`,
      [ageMs],
    );
  const ages = async () =>
    (
      await dataSource.query<{ days: number }[]>(
        'SELECT round(extract(epoch FROM now() - cancelled_at) / 86400)::int AS days FROM cancelled_orders ORDER BY 1',
      )
    ).map((row) => row.days);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'inventory_cancelled_cleanup');
    // Retention 14 days (the inbox's); batches of 2, so 5 expired rows need several statements.
    const config = loadConfig(inventoryEnv, {
      ...testAuthEnv('inventory'),
      DATABASE_URL: serverUrl,
      DATABASE_NAME: database,
      KAFKA_BROKERS: brokers.join(','),
      LOYALTY_BASE_URL: 'http://127.0.0.1:3002',
      INBOX_RETENTION_MS: String(14 * DAY_MS),
      INBOX_CLEANUP_BATCH_SIZE: '2',
    });
    dataSource = await createInventoryDataSource(config).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    cleanup = new RetentionJob(dataSource, cancelledOrdersRetention(config));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when cancellations are older than the inbox retention, then they are deleted in batches and younger ones are kept', async () => {
    for (const days of [20, 30, 15, 40, 100]) await remember(days * DAY_MS);
    for (const days of [1, 13]) await remember(days * DAY_MS);

    expect(await cleanup.run()).toBe(5);
    expect(await ages()).toEqual([1, 13]);
    expect(await cleanup.run()).toBe(0);
  });
});
