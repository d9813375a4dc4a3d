import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/local-stack';
import { createDataSource } from './data-source.factory.js';
import { databaseUrl } from './database-url.js';

/**
 * Issue 7, point 7: no statement and no lock wait is unbounded. The timeouts come from
 * `DATABASE_STATEMENT_TIMEOUT_MS` / `DATABASE_LOCK_TIMEOUT_MS` through `createDataSource` into
 * every pool connection. Real Postgres.
 */
const { serverUrl } = testInfrastructure();

describe('data source statement and lock timeouts (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'db_timeouts');
    dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [],
      migrations: [],
      statementTimeoutMs: 500,
      lockTimeoutMs: 300,
    }).initialize();
    await dataSource.query('CREATE TABLE things (id int PRIMARY KEY)');
    await dataSource.query('INSERT INTO things VALUES (1)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when a pool connection is used, then it carries the configured statement_timeout and lock_timeout', async () => {
    expect(await dataSource.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '500ms' }]);
    expect(await dataSource.query('SHOW lock_timeout')).toEqual([{ lock_timeout: '300ms' }]);
  });

  it('when a statement runs longer than the statement timeout, then Postgres cancels it (57014)', async () => {
    await expect(dataSource.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
  });

  it('when a row lock is held by a stuck transaction, then waiting for it fails after the lock timeout (55P03) instead of queueing', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM things WHERE id = 1 FOR UPDATE');
      await expect(dataSource.transaction((manager) => manager.query('UPDATE things SET id = 1 WHERE id = 1'))).rejects.toMatchObject({
        code: '55P03',
      });
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });
});
