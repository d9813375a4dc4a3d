import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { migrateDatabase } from '@libs/database';
import { testAuthEnv, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { inventoryEnv } from '../inventory.config.js';
import { createInventoryDataSource } from '../inventory.data-source.js';

const { serverUrl, brokers } = testInfrastructure();

/**
 * `loyalty_commands`: the table `@libs/commands` creates, plus inventory's accrual columns, generated
 * from the request body the library writes. (Before the library's migration was folded in, a
 * trigger also accepted rows written the old way, columns without a body, for replicas not yet
 * upgraded in a rolling deploy; no such writer exists any more: see docs/commands.md.)
 */
describe('loyalty_commands: accrual columns read from the request (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;

  const row = async (id: string) =>
    (
      await dataSource.query<{ path: string; body: unknown; customer_id: string; order_id: string; points: number }[]>(
        'SELECT path, body, customer_id, order_id, points FROM loyalty_commands WHERE id = $1',
        [id],
      )
    )[0];

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'inventory_loyalty_columns');
    const config = loadConfig(inventoryEnv, {
      ...testAuthEnv('inventory'),
      DATABASE_URL: serverUrl,
      DATABASE_NAME: database,
      KAFKA_BROKERS: brokers.join(','),
      LOYALTY_BASE_URL: 'http://127.0.0.1:3002',
    });
    dataSource = await createInventoryDataSource(config).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when a row is written as a request (the library), then its accrual columns come from the body', async () => {
    const orderId = '6f1c2b7e-2d3a-4e5f-8a9b-0c1d2e3f4a5b';
    await dataSource.query('INSERT INTO loyalty_commands (id, path, body) VALUES ($1, $2, $3)', [
      'new-form',
      '/accruals',
      JSON.stringify({ customerId: 'c-new', orderId, points: 7 }),
    ]);

    expect(await row('new-form')).toEqual({
      path: '/accruals',
      body: { customerId: 'c-new', orderId, points: 7 },
      customer_id: 'c-new',
      order_id: orderId,
      points: 7,
    });
  });

  it('when a row names the accrual columns itself, then it is refused: they only follow the body', async () => {
    await expect(
      dataSource.query('INSERT INTO loyalty_commands (id, path, body, order_id) VALUES ($1, $2, $3, $4)', [
        'old-form',
        '/accruals',
        JSON.stringify({ customerId: 'c-old', orderId: '0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d', points: 12 }),
        '0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d',
      ]),
    ).rejects.toThrow(/cannot insert a non-DEFAULT value into column "order_id"/);
  });

  it('when a row would earn no points, then it is refused', async () => {
    await expect(
      dataSource.query('INSERT INTO loyalty_commands (id, path, body) VALUES ($1, $2, $3)', [
        'zero',
        '/accruals',
        JSON.stringify({ customerId: 'c', orderId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', points: 0 }),
      ]),
    ).rejects.toThrow(/check constraint/);
  });
});
