import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { createDataSource, migrateDatabase, RetentionJob } from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { CreateInboxMessages1764460800020 } from '../claim/create-inbox-messages.migration.js';
import { InboxMessage } from '../claim/inbox-message.entity.js';
import { inboxEnv } from '../inbox.config.js';
import { inboxRetention } from './inbox.retention.js';
import { InboxMetrics } from '../telemetry/inbox.metrics.js';

const { serverUrl } = testInfrastructure();
const DAY_MS = 24 * 3_600_000;

describe('inboxRetention: the retention job (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let registry: Registry;
  let cleanup: RetentionJob;

  /** Inserts an inbox row for `consumer` received `ageMs` ago. */
  const insert = (consumer: string, ageMs: number) =>
    dataSource.query(
      `INSERT INTO inbox_messages (consumer, message_id, message_type, topic, partition, "offset", payload_hash, received_at)
       VALUES ($1, gen_random_uuid(), 'ThingHappened', 't', 0, 0, 'h', now() - make_interval(secs => $2::float / 1000))`,
      [consumer, ageMs],
    );
  const consumers = async () =>
    (await dataSource.query<{ consumer: string }[]>('SELECT consumer FROM inbox_messages ORDER BY consumer')).map((row) => row.consumer);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'inbox_cleanup');
    dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [InboxMessage],
      migrations: [CreateInboxMessages1764460800020],
      poolSize: 2,
    }).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    registry = new Registry();
    // Retention 14 days; batches of 2 so that 5 expired rows need several statements.
    const config = loadConfig(inboxEnv, { INBOX_RETENTION_MS: String(14 * DAY_MS), INBOX_CLEANUP_BATCH_SIZE: '2' });
    cleanup = new RetentionJob(dataSource, inboxRetention(config, new InboxMetrics(registry)));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when it runs, then only rows older than the retention are deleted, in several batches', async () => {
    for (let n = 1; n <= 5; n += 1) await insert(`expired-${n}`, (14 + n) * DAY_MS);
    await insert('young', 13 * DAY_MS);
    await insert('new', 0);

    expect(await cleanup.run()).toBe(5);
    expect(await consumers()).toEqual(['new', 'young']);
    const deleted = await registry.getSingleMetric('inbox_cleanup_deleted_total')!.get();
    expect(deleted.values[0].value).toBe(5);
  });

  it('when nothing has expired, then a run deletes nothing', async () => {
    expect(await cleanup.run()).toBe(0);
    expect(await consumers()).toEqual(['new', 'young']);
  });

  it('when shutdown awaits idle() with no run in flight, then it returns without starting a run', async () => {
    await insert('expired-late', 15 * DAY_MS);
    await cleanup.idle();
    expect(await consumers()).toEqual(['expired-late', 'new', 'young']);
    expect(await cleanup.run()).toBe(1);
  });
});
