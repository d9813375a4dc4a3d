import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { Headers } from '@libs/envelope';
import {
  createDataSource,
  DAY_MS,
  DatabaseModule,
  dayPartitionName,
  defaultPartitionName,
  migrateDatabase,
  timeOrderedUuid,
} from '@libs/database';
import { createKafka, ensureTopics, KafkaModule } from '@libs/kafka';
import { MetricsModule } from '@libs/metrics';
import { OutboxMessage, OutboxModule, OutboxRelay, outboxEnv } from '@libs/outbox';
import { createOrdersDataSource } from '@apps/orders';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, topicEndOffsets, TopicRecorder, uniqueName } from '@tools/test-support';

const { serverUrl, brokers } = testInfrastructure();

/** Every row of `table`, in key order, as JSON: what must survive the conversion unchanged. */
async function everyRow(dataSource: DataSource, table: string, key: string): Promise<string[]> {
  const rows: unknown[] = await dataSource.query(`SELECT * FROM ${table} ORDER BY ${key}`);
  return rows.map((row) => JSON.stringify(row));
}

/** The partition each row of `table` is stored in, by key. */
async function partitionOfEach(dataSource: DataSource, table: string, key: string): Promise<Record<string, string>> {
  const rows: { key: string; partition: string }[] = await dataSource.query(
    `SELECT ${key} AS key, tableoid::regclass::text AS partition FROM ${table}`,
  );
  return Object.fromEntries(rows.map((row) => [row.key, row.partition]));
}

describe('converting outbox_messages and inbox_messages to day partitions on a database with data (orders app)', () => {
  let database: string;
  let dataSource: DataSource;
  let relayModule: TestingModule | undefined;
  let recorder: TopicRecorder | undefined;
  const topic = uniqueName('test.partition-migration.v1').replace(/_/g, '-');
  const now = Date.now();
  const day = (ago: number) => Math.floor(now / DAY_MS) * DAY_MS - ago * DAY_MS + 3_600_000;
  // Rows of the last four days, pending and published, and one id that is not time-ordered.
  const outboxRows = [
    { id: timeOrderedUuid(day(3)), at: day(3), published: true },
    { id: timeOrderedUuid(day(3) + 1), at: day(3), published: false },
    { id: timeOrderedUuid(day(2)), at: day(2), published: true },
    { id: timeOrderedUuid(day(1)), at: day(1), published: false },
    { id: timeOrderedUuid(day(0)), at: day(0), published: false },
    { id: timeOrderedUuid(day(0) + 1), at: day(0), published: true },
    { id: randomUUID(), at: day(1), published: false },
  ];
  const inboxRows = [timeOrderedUuid(day(2)), timeOrderedUuid(day(0)), randomUUID()];

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'partition_migration');
    const config = { DATABASE_URL: serverUrl, DATABASE_NAME: database, DATABASE_POOL_SIZE: 2 };
    await migrateDatabase(createOrdersDataSource(config), serverUrl, database);
    dataSource = await createOrdersDataSource(config).initialize();
    // Back to the migration before: the tables of the old shape, unpartitioned.
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    await ensureTopics(createKafka({ brokers, clientId: uniqueName('test-topics') }), [topic], 3);
  });

  afterAll(async () => {
    await relayModule?.close();
    await recorder?.stop();
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when a database holding pending and published rows is upgraded, then every row is kept in its day, and the relay publishes every pending row, once', async () => {
    const [{ kind }]: { kind: string }[] = await dataSource.query("SELECT relkind AS kind FROM pg_class WHERE relname = 'outbox_messages'");
    expect(kind).toBe('r');
    for (const row of outboxRows) {
      await dataSource.query(
        `INSERT INTO outbox_messages (id, aggregate_type, aggregate_id, message_type, topic, key, payload, headers, created_at, published_at)
         VALUES ($1::uuid, 'thing', $1::text, 'ThingHappened', $2, $1::text, '{}', $3, $4, $5)`,
        [row.id, topic, { [Headers.messageId]: row.id }, new Date(row.at), row.published ? new Date(row.at + 1000) : null],
      );
    }
    for (const id of inboxRows) {
      await dataSource.query(
        `INSERT INTO inbox_messages (consumer, message_id, message_type, topic, partition, "offset", payload_hash) VALUES ('orders', $1, 'ThingHappened', $2, 0, 1, 'h')`,
        [id, topic],
      );
    }
    const before = {
      outbox: await everyRow(dataSource, 'outbox_messages', 'id'),
      inbox: await everyRow(dataSource, 'inbox_messages', 'message_id'),
    };

    await dataSource.runMigrations({ transaction: 'each' });

    expect(await everyRow(dataSource, 'outbox_messages', 'id')).toEqual(before.outbox);
    expect(await everyRow(dataSource, 'inbox_messages', 'message_id')).toEqual(before.inbox);
    const [last, ...days] = outboxRows.toReversed();
    expect(await partitionOfEach(dataSource, 'outbox_messages', 'id')).toEqual({
      ...Object.fromEntries(days.map((row) => [row.id, dayPartitionName('outbox_messages', Math.floor(row.at / DAY_MS) * DAY_MS)])),
      [last.id]: defaultPartitionName('outbox_messages'),
    });
    expect(await partitionOfEach(dataSource, 'inbox_messages', 'message_id')).toEqual({
      [inboxRows[0]]: dayPartitionName('inbox_messages', day(2) - 3_600_000),
      [inboxRows[1]]: dayPartitionName('inbox_messages', day(0) - 3_600_000),
      [inboxRows[2]]: defaultPartitionName('inbox_messages'),
    });
    // The deduplication is still global: a second claim of a message kept in an older day conflicts.
    const again: unknown[] = await dataSource.query(
      `INSERT INTO inbox_messages (consumer, message_id, message_type, topic, partition, "offset", payload_hash)
       VALUES ('orders', $1, 'ThingHappened', $2, 0, 2, 'h') ON CONFLICT DO NOTHING RETURNING message_id`,
      [inboxRows[0], topic],
    );
    expect(again).toEqual([]);
    // The relay orders by seq: a row written now sorts after every row kept.
    const [{ newer }]: { newer: boolean }[] = await dataSource.query(
      `WITH added AS (INSERT INTO outbox_messages (id, aggregate_type, aggregate_id, message_type, topic, key, payload, headers, published_at)
         VALUES ($1, 'thing', 'later', 'ThingHappened', $2, 'later', '{}', '{}', now()) RETURNING seq)
       SELECT (SELECT seq FROM added) > (SELECT max(seq) FROM outbox_messages) AS newer`,
      [timeOrderedUuid(), topic],
    );
    expect(newer).toBe(true);

    const start = await topicEndOffsets(brokers, topic);
    recorder = await TopicRecorder.start({ brokers, topic, from: start });
    relayModule = await Test.createTestingModule({
      imports: [
        DatabaseModule.forRoot({
          useFactory: () => createDataSource({ serverUrl, database, entities: [OutboxMessage], migrations: [], poolSize: 2 }),
        }),
        KafkaModule.forRoot({ useFactory: () => ({ brokers, clientId: uniqueName('test-relay') }) }),
        MetricsModule.forRoot({ service: 'partition-migration-test' }),
        ScheduleModule.forRoot(),
        OutboxModule.forRoot(loadConfig(outboxEnv, { OUTBOX_RELAY_ENABLED: 'false', OUTBOX_LISTEN_ENABLED: 'false' })),
        OutboxModule.forFeature(),
      ],
    }).compile();
    await relayModule.init();
    const relay = relayModule.get(OutboxRelay);
    while ((await relay.publishBatches(1)).selected > 0);

    // Everything the relay sent is in the topic now: exactly one record per pending row.
    const end = await topicEndOffsets(brokers, topic);
    const sent = Object.entries(end).reduce((sum, [partition, high]) => sum + high - (start[Number(partition)] ?? 0), 0);
    const pending = outboxRows.filter((row) => !row.published).map((row) => row.id);
    const recorded = await recorder.waitUntil((all) => all.length >= pending.length, { description: 'every pending row published' });
    expect(sent).toBe(pending.length);
    expect(recorded.map((message) => message.headers[Headers.messageId]).sort()).toEqual([...pending].sort());
    const [{ left }]: { left: number }[] = await dataSource.query(
      'SELECT count(*)::int AS left FROM outbox_messages WHERE published_at IS NULL',
    );
    expect(left).toBe(0);
  });
});
