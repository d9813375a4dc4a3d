import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { parkedCountQuery } from '@libs/commands';
import { loadConfig } from '@libs/config';
import { migrateDatabase } from '@libs/database';
import { testAuthEnv, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { inventoryEnv } from '../inventory.config.js';
import { createInventoryDataSource } from '../inventory.data-source.js';
import { LOYALTY_COMMANDS_TABLE } from '../reservations/reserve-stock/loyalty-accrual.command.js';

const { serverUrl, brokers } = testInfrastructure();

/**
 * The parked gauge, scraped every few seconds, and the retention cleanup read
 * only their own rows of `loyalty_commands`, through the partial indexes of
 * the library's table migration (createCommandsTable), on a table shaped like production's: almost all rows DONE.
 */
describe('loyalty_commands partial indexes (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;

  const plan = async (sql: string) =>
    (await dataSource.query<{ 'QUERY PLAN': string }[]>(`EXPLAIN (FORMAT TEXT) ${sql}`)).map((row) => row['QUERY PLAN']).join('\n');

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'inventory_command_indexes');
    const config = loadConfig(inventoryEnv, {
      ...testAuthEnv('inventory'),
      DATABASE_URL: serverUrl,
      DATABASE_NAME: database,
      KAFKA_BROKERS: brokers.join(','),
      LOYALTY_BASE_URL: 'http://127.0.0.1:3002',
    });
    dataSource = await createInventoryDataSource(config).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    await dataSource.query(
      `INSERT INTO ${LOYALTY_COMMANDS_TABLE} (id, path, body, status, completed_at)
       SELECT 'loyalty-accrual:' || n, '/accruals',
              jsonb_build_object('customerId', 'c' || (n % 100), 'orderId', gen_random_uuid(), 'points', 1 + n % 50),
              CASE WHEN n % 10000 = 0 THEN 'PARKED' WHEN n % 1000 = 0 THEN 'PENDING' ELSE 'DONE' END,
              CASE WHEN n % 1000 = 0 THEN NULL ELSE now() - make_interval(secs => n) END
         FROM generate_series(1, 30000) AS n`,
    );
    await dataSource.query(`ANALYZE ${LOYALTY_COMMANDS_TABLE}`);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when the parked gauge is scraped, then its count reads the parked index only, not the table', async () => {
    const text = await plan(parkedCountQuery(LOYALTY_COMMANDS_TABLE));
    expect(text).toContain('loyalty_commands_parked_idx');
    expect(text).not.toContain('Seq Scan');
    expect(await dataSource.query(parkedCountQuery(LOYALTY_COMMANDS_TABLE))).toEqual([{ n: 3 }]);
  });

  it('when the cleanup looks for expired DONE rows, then it walks the DONE index by completed_at, not the table', async () => {
    const text = await plan(
      `SELECT ctid FROM ${LOYALTY_COMMANDS_TABLE} WHERE status = 'DONE' AND completed_at < now() - interval '8 hours' LIMIT 1000`,
    );
    expect(text).toContain('loyalty_commands_done_idx');
    expect(text).not.toContain('Seq Scan');
  });
});
