import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import {
  createDataSource,
  DAY_MS,
  dayPartitionName,
  defaultPartitionName,
  maintainDayPartitions,
  migrateDatabase,
  partitionsOf,
  RetentionJob,
  type RetentionPolicy,
  timeOrderedUuid,
} from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { CreateInboxMessages1764460800020 } from '../claim/create-inbox-messages.migration.js';
import { claimMessages } from '../claim/inbox.claim.js';
import { InboxMessage } from '../claim/inbox-message.entity.js';
import { PartitionInboxMessages1764460801010 } from '../claim/partition-inbox-messages.migration.js';
import type { InboxEnvelope } from '../envelope/inbox.envelope.js';
import { inboxEnv } from '../inbox.config.js';
import { InboxPartitionsGauges } from './inbox-partitions.gauges.js';
import { inboxRetention } from './inbox.retention.js';
import { InboxMetrics } from '../telemetry/inbox.metrics.js';

const { serverUrl } = testInfrastructure();
const HOUR_MS = 3_600_000;

describe('inboxRetention: day partitions of message ids, dropped whole past retention (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let registry: Registry;
  let policy: RetentionPolicy;
  let cleanup: RetentionJob;
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const partition = (daysFromToday: number) => dayPartitionName('inbox_messages', today + daysFromToday * DAY_MS);
  const minted = (daysFromToday: number) => timeOrderedUuid(today + daysFromToday * DAY_MS + HOUR_MS);
  const ids = { expired: minted(-18), within: minted(-10), lateFirstDelivery: minted(-16) };

  /** Inserts an inbox row for `consumer` of message `id` received `ageMs` ago. */
  const insert = (consumer: string, id: string, ageMs: number) =>
    dataSource.query(
      `INSERT INTO inbox_messages (consumer, message_id, message_type, topic, partition, "offset", payload_hash, received_at)
       VALUES ($1, $2, 'ThingHappened', 't', 0, 0, 'h', now() - make_interval(secs => $3::float / 1000))`,
      [consumer, id, ageMs],
    );
  const consumers = async () =>
    (await dataSource.query<{ consumer: string }[]>('SELECT consumer FROM inbox_messages ORDER BY consumer')).map((row) => row.consumer);
  /** A delivery of message `id` to consumer `consumer`, claimed as the inbox claims it: the ids this delivery inserted. */
  const deliver = (consumer: string, id: string) =>
    dataSource.transaction((manager) =>
      claimMessages(manager, consumer, [
        { messageId: id, messageType: 'ThingHappened', topic: 't', partition: 0, offset: '1', payloadHash: 'h' } as InboxEnvelope,
      ]),
    );
  const metric = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0].value;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'inbox_cleanup');
    dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [InboxMessage],
      migrations: [CreateInboxMessages1764460800020, PartitionInboxMessages1764460801010],
      poolSize: 2,
    }).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    registry = new Registry();
    new InboxPartitionsGauges(registry, dataSource);
    // Retention 14 days; batches of 2 so that 3 expired rows of the default partition need several statements.
    const config = loadConfig(inboxEnv, { INBOX_RETENTION_MS: String(14 * DAY_MS), INBOX_CLEANUP_BATCH_SIZE: '2' });
    policy = inboxRetention(config, new InboxMetrics(registry));
    cleanup = new RetentionJob(dataSource, policy);
    // The partitions of the last twenty days, as the job created them ahead then.
    await maintainDayPartitions(dataSource, { ...policy.partitions!, daysAhead: 20 }, today - 20 * DAY_MS);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when it runs, then a day whose rows were all received before the retention is dropped whole, and one holding a row received within it is kept', async () => {
    await insert('a-expired', ids.expired, 18 * DAY_MS);
    await insert('b-within', ids.within, 10 * DAY_MS);
    // A message of day -16 first delivered yesterday (a consumer catching up): its day stays for the retention.
    await insert('c-late-first-delivery', ids.lateFirstDelivery, DAY_MS);
    // Message ids that are not time-ordered: the default partition, pruned row by row.
    for (let n = 1; n <= 3; n += 1) await insert(`d-default-expired-${n}`, randomUUID(), 15 * DAY_MS);
    await insert('d-default-young', randomUUID(), 0);

    expect(await cleanup.run()).toBe(3);

    const partitions = await partitionsOf(dataSource, 'inbox_messages');
    expect(partitions).not.toContain(partition(-18));
    // Every day up to the retention's is gone; nothing of theirs was needed.
    expect(partitions.filter((name) => name < partition(-14) && name !== defaultPartitionName('inbox_messages'))).toEqual([partition(-16)]);
    expect(partitions).toEqual(expect.arrayContaining([partition(-10), partition(0), partition(3)]));
    expect(await consumers()).toEqual(['b-within', 'c-late-first-delivery', 'd-default-young']);
    expect(await metric('inbox_partitions_dropped_total')).toBe(5);
    expect(await metric('inbox_cleanup_deleted_total')).toBe(3);
  });

  it('when a message whose id falls in an older partition within retention is redelivered, then the claim conflicts: absorbed', async () => {
    expect(await deliver('b-within', ids.within)).toEqual(new Set());
    expect(await deliver('c-late-first-delivery', ids.lateFirstDelivery)).toEqual(new Set());
    // The same message for another consumer is that consumer's first delivery.
    expect(await deliver('another-consumer', ids.within)).toEqual(new Set([ids.within]));
  });

  it("when a message past retention is delivered again, then its row is gone with its day, it is claimed anew in the default partition and counted there (docs/guarantees.md: the retention exceeds the topics' retention, so Kafka cannot redeliver it)", async () => {
    expect(await metric('inbox_default_partition_rows')).toBe(1);
    expect(await deliver('a-expired', ids.expired)).toEqual(new Set([ids.expired]));
    const [{ home }]: { home: string }[] = await dataSource.query(
      'SELECT tableoid::regclass::text AS home FROM inbox_messages WHERE consumer = $1 AND message_id = $2',
      ['a-expired', ids.expired],
    );
    expect(home).toBe(defaultPartitionName('inbox_messages'));
    expect(await metric('inbox_default_partition_rows')).toBe(2);
    expect(await metric('inbox_partitions_ahead_days')).toBeGreaterThanOrEqual(3);
  });

  it('when shutdown awaits idle() with no run in flight, then it returns without starting a run', async () => {
    await insert('e-default-expired-late', randomUUID(), 15 * DAY_MS);
    await cleanup.idle();
    expect(await consumers()).toContain('e-default-expired-late');
    expect(await cleanup.run()).toBe(1);
  });
});
