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

/**
 * The migration that makes one accrual per order a rule of the database, on a
 * table that already holds an order credited twice (as two Idempotency-Keys could do before it).
 */
describe('AddAccrualsOrderIdUnique1764460800700 (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'loyalty_accruals_unique');
    const config = loadConfig(loyaltyEnv, { ...testAuthEnv('loyalty'), DATABASE_URL: serverUrl, DATABASE_NAME: database });
    dataSource = await createLoyaltyDataSource(config).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    // Back to just before this migration, whatever later ones the app has by now.
    const applied = async () =>
      (await dataSource.query('SELECT 1 FROM typeorm_migrations WHERE name = $1', ['AddAccrualsOrderIdUnique1764460800700'])).length > 0;
    while (await applied()) await dataSource.undoLastMigration();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when an order is credited twice, then the migration refuses naming the count and changes nothing; once resolved, it adds the constraint', async () => {
    const orderId = randomUUID();
    await dataSource.query(`INSERT INTO accruals (customer_id, order_id, points) VALUES ('c', $1, 5), ('c', $1, 5), ('d', $2, 1)`, [
      orderId,
      randomUUID(),
    ]);

    await expect(dataSource.runMigrations({ transaction: 'each' })).rejects.toThrow(`1 order(s) credited more than once (e.g. ${orderId})`);
    expect(await dataSource.query('SELECT count(*)::int AS n FROM accruals')).toEqual([{ n: 3 }]);

    await dataSource.query('DELETE FROM accruals WHERE id = (SELECT max(id::text)::uuid FROM accruals WHERE order_id = $1)', [orderId]);
    await dataSource.runMigrations({ transaction: 'each' });
    await expect(dataSource.query(`INSERT INTO accruals (customer_id, order_id, points) VALUES ('c', $1, 5)`, [orderId])).rejects.toThrow(
      'accruals_order_id_key',
    );
  });
});
