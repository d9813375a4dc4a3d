import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { createDataSource, RetentionJob } from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import type { CommandsOptions } from '../command.options.js';
import { CommandMetrics } from '../ops/command.metrics.js';
import { commandsRetention } from './command.retention.js';

/** A commands table keeps the work in hand and a window of history, not every command ever sent. */
const { serverUrl } = testInfrastructure();
const TABLE = 'partner_commands';
const DAY_MS = 86_400_000;

describe('commandsRetention: the retention job of a commands table (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let cleanup: RetentionJob;
  let registry: Registry;

  const insert = (id: string, status: string, completedDaysAgo: number | null) =>
    dataSource.query(
      `INSERT INTO ${TABLE} (id, path, body, status, created_at, completed_at)
       VALUES ($1, '/x', '{}', $2, now() - interval '400 days',
               CASE WHEN $3::float IS NULL THEN NULL ELSE now() - make_interval(secs => $3::float * 86400) END)`,
      [id, status, completedDaysAgo],
    );
  const ids = async () => (await dataSource.query<{ id: string }[]>(`SELECT id FROM ${TABLE} ORDER BY id`)).map((row) => row.id);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'commands_cleanup');
    dataSource = await createDataSource({ serverUrl, database, entities: [], migrations: [], poolSize: 2 }).initialize();
    await dataSource.query(`
      CREATE TABLE ${TABLE} (
        id text PRIMARY KEY, path text NOT NULL, body jsonb NOT NULL,
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DONE', 'PARKED')),
        attempts int NOT NULL DEFAULT 0, last_error text, next_attempt_at timestamptz NOT NULL DEFAULT now(),
        claim_id uuid, traceparent text, created_at timestamptz NOT NULL DEFAULT now(), completed_at timestamptz
      )`);
    const options: CommandsOptions = {
      table: TABLE,
      baseUrl: 'http://127.0.0.1:1',
      pollIntervalMs: 100,
      lingerMs: 0,
      batchSize: 10,
      concurrency: 1,
      requestTimeoutMs: 1000,
      retryBaseMs: 10,
      retryMaxMs: 10,
      tokenSource: { token: async () => 'unused', invalidate: () => undefined },
      retentionMs: 7 * DAY_MS,
      cleanupCron: '0 */5 * * * *',
      // Batches of 2, so that 5 expired rows need several statements.
      cleanupBatchSize: 2,
      layers: { 'dispatch-linger': true, 'concurrent-calls': true, 'batched-calls': true, 'coalesced-marks': true },
    };
    registry = new Registry();
    cleanup = new RetentionJob(dataSource, commandsRetention(options, new CommandMetrics(registry, dataSource, options)));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when it runs, then only DONE commands completed before the retention are deleted, in batches; pending and parked ones stay however old', async () => {
    for (let n = 1; n <= 5; n += 1) await insert(`done-old-${n}`, 'DONE', 7 + n);
    await insert('done-young', 'DONE', 6);
    await insert('pending-old', 'PENDING', null);
    await insert('parked-old', 'PARKED', 300);

    expect(await cleanup.run()).toBe(5);
    expect(await ids()).toEqual(['done-young', 'parked-old', 'pending-old']);
    expect((await registry.getSingleMetric(`${TABLE}_deleted_total`)!.get()).values[0]?.value).toBe(5);
    expect(await cleanup.run()).toBe(0);
  });

  it('when a pending command has been due for ten minutes, then the oldest-due gauge says so; commands backing off or done do not count', async () => {
    await dataSource.query(`DELETE FROM ${TABLE}`);
    const gauge = async () => (await registry.getSingleMetric(`${TABLE}_oldest_due_age_seconds`)!.get()).values[0].value;
    expect(await gauge()).toBe(0);
    await dataSource.query(
      `INSERT INTO ${TABLE} (id, path, body, status, next_attempt_at) VALUES
         ('backing-off', '/x', '{}', 'PENDING', now() + interval '1 hour'),
         ('done-long-ago', '/x', '{}', 'DONE', now() - interval '1 day')`,
    );
    expect(await gauge()).toBe(0);
    await dataSource.query(
      `INSERT INTO ${TABLE} (id, path, body, next_attempt_at) VALUES ('stuck', '/x', '{}', now() - interval '10 minutes')`,
    );
    expect(await gauge()).toBeGreaterThanOrEqual(600);
    expect(await gauge()).toBeLessThan(660);
  });
});
