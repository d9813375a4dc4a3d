import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { createDataSource, migrateDatabase, RetentionJob } from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { CreateOutboxMessages1764460800010 } from '../storage/create-outbox-messages.migration.js';
import { OutboxMessage } from '../storage/outbox-message.entity.js';
import { outboxEnv } from '../outbox.config.js';
import { outboxRetention } from './outbox.retention.js';
import { OutboxMetrics } from '../ops/outbox.metrics.js';

const { serverUrl } = testInfrastructure();
const HOUR_MS = 3_600_000;

describe('outboxRetention: the retention job (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let registry: Registry;
  let cleanup: RetentionJob;

  /** Inserts a row whose publication (or creation, when pending) lies `ageMs` in the past. */
  const insert = (label: string, state: 'pending' | 'published', ageMs: number) =>
    dataSource.query(
      `INSERT INTO outbox_messages (id, aggregate_type, aggregate_id, message_type, topic, key, payload, headers, created_at, published_at)
       VALUES (gen_random_uuid(), 'thing', $1, 'ThingHappened', 't', $1, '{}', '{}',
               now() - make_interval(secs => $2::float / 1000),
               CASE WHEN $3 THEN now() - make_interval(secs => $2::float / 1000) END)`,
      [label, ageMs, state === 'published'],
    );
  const labels = async () =>
    (await dataSource.query<{ aggregate_id: string }[]>('SELECT aggregate_id FROM outbox_messages ORDER BY aggregate_id')).map(
      (row) => row.aggregate_id,
    );

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_cleanup');
    dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [OutboxMessage],
      migrations: [CreateOutboxMessages1764460800010],
      poolSize: 2,
    }).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    registry = new Registry();
    // Retention one day; batches of 2 so that 5 expired rows need several statements.
    const config = loadConfig(outboxEnv, { OUTBOX_RETENTION_MS: String(24 * HOUR_MS), OUTBOX_CLEANUP_BATCH_SIZE: '2' });
    cleanup = new RetentionJob(dataSource, outboxRetention(config, new OutboxMetrics(registry, dataSource)));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when it runs, then only published rows older than the retention are deleted; pending and young published rows stay', async () => {
    for (let n = 1; n <= 5; n += 1) await insert(`expired-${n}`, 'published', (24 + n) * HOUR_MS);
    await insert('young-published', 'published', 23 * HOUR_MS);
    await insert('old-pending', 'pending', 30 * 24 * HOUR_MS);
    await insert('new-pending', 'pending', 0);

    expect(await cleanup.run()).toBe(5);
    expect(await labels()).toEqual(['new-pending', 'old-pending', 'young-published']);
    const deleted = await registry.getSingleMetric('outbox_cleanup_deleted_total')!.get();
    expect(deleted.values[0].value).toBe(5);
  });

  it('when nothing has expired, then a run deletes nothing', async () => {
    expect(await cleanup.run()).toBe(0);
    expect(await labels()).toEqual(['new-pending', 'old-pending', 'young-published']);
  });

  it('when runs overlap, then the second joins the first instead of deleting in parallel', async () => {
    await insert('expired-again', 'published', 48 * HOUR_MS);
    const [first, second] = await Promise.all([cleanup.run(), cleanup.run()]);
    expect([first, second]).toEqual([1, 1]);
    expect(await labels()).toEqual(['new-pending', 'old-pending', 'young-published']);
  });
});
