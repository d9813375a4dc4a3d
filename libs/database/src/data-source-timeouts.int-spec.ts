import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { createDataSource } from './data-source.factory.js';
import { databaseUrl } from './database-url.js';

/**
 * No statement and no lock wait is unbounded. The timeouts come from
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

/**
 * No wait for a connection is unbounded either. `DATABASE_CONNECT_TIMEOUT_MS`
 * reaches pg's pool as `connectionTimeoutMillis`; without it both cases below hang for ever.
 */
describe('data source connect timeout', () => {
  it('when the server accepts the connection and never answers, then connecting fails after the connect timeout', async () => {
    // A stand-in for a half-dead proxy: it takes the TCP connection and says nothing.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const dataSource = createDataSource({
      serverUrl: `postgres://postgres@127.0.0.1:${port}`,
      database: 'never_answers_test',
      entities: [],
      migrations: [],
      connectTimeoutMs: 300,
    });
    const started = Date.now();
    try {
      await expect(dataSource.initialize()).rejects.toThrow(/timeout/i);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('when every pool connection is busy, then the next query fails after the connect timeout instead of queueing for ever', async () => {
    const database = await createTestDatabase(serverUrl, 'db_connect_timeout');
    const dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [],
      migrations: [],
      poolSize: 1,
      connectTimeoutMs: 300,
    }).initialize();
    const holder = dataSource.createQueryRunner();
    try {
      await holder.connect();
      const started = Date.now();
      await expect(dataSource.query('SELECT 1')).rejects.toThrow(/timeout exceeded when trying to connect/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await holder.release();
      await dataSource.destroy();
      await dropTestDatabase(serverUrl, database);
    }
  });
});
