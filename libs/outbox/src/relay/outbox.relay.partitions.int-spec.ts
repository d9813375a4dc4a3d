import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { Kafka, type Producer, type ProducerBatch } from 'kafkajs';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import type { MessageDeclaration } from '@libs/envelope';
import { createDataSource, DatabaseModule, databaseUrl, migrateDatabase, TransactionContext } from '@libs/database';
import { createKafka, ensureTopics, KafkaModule } from '@libs/kafka';
import { MetricsModule } from '@libs/metrics';
import { partitionOfKey, PrivateKafka, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, topicEndOffsets, TopicRecorder, uniqueName, waitFor } from '@tools/test-support';
import { CreateOutboxMessages1764460800010 } from '../storage/create-outbox-messages.migration.js';
import { PartitionOutboxMessages1764460801000 } from '../storage/partition-outbox-messages.migration.js';
import { OutboxMessage } from '../storage/outbox-message.entity.js';
import type { OutboxEvent } from '../write/outbox.event.js';
import { outboxEnv } from '../outbox.config.js';
import { OutboxModule } from '../outbox.module.js';
import { OUTBOX_LAYER_MODES, oneTransaction } from '../layers/outbox-layers.fixture.js';
import { OutboxRelay } from './outbox.relay.js';
import { OutboxWriter } from '../write/outbox.writer.js';

/** A declaration of a test type: any object payload; the relay never looks inside. */
const testMessage = (topic: string, type: string): MessageDeclaration => ({
  topic,
  type,
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.looseObject({}),
});

/**
 * A bad partition does not stop the others, and a broker that stops answering
 * never holds the relay's lock and transaction for long.
 */
const { serverUrl, brokers } = testInfrastructure();
const PARTITIONS = 3;
const baseConfig = {
  OUTBOX_RELAY_ENABLED: 'false',
  OUTBOX_LISTEN_ENABLED: 'false',
  OUTBOX_RETRY_BASE_MS: '60000',
  OUTBOX_RETRY_MAX_MS: '120000',
  // The backoff assertions below read the exponential delay; the cap for an unavailable cluster has its own test.
  OUTBOX_UNAVAILABLE_RETRY_MAX_MS: '120000',
};

const partitionOf = (topic: string, key: string) => partitionOfKey(topic, key, PARTITIONS);

/**
 * The real client and broker, except that every send touching `badPartition` fails the way kafkajs
 * reports a partition whose leader is gone (retries exhausted on LEADER_NOT_AVAILABLE), without
 * reaching the broker. Injected at the kafkajs producer boundary because a single-node broker
 * cannot take one partition's leader away while keeping the others.
 */
function kafkaWithBadPartition(real: Kafka, badPartition: number): Kafka {
  return new Proxy(real, {
    get(target, property, receiver) {
      if (property !== 'producer') return Reflect.get(target, property, receiver);
      return (...args: Parameters<Kafka['producer']>): Producer => {
        const producer = target.producer(...args);
        const sendBatch = producer.sendBatch.bind(producer);
        producer.sendBatch = async (batch: ProducerBatch) => {
          const touchesBad = batch.topicMessages!.some(({ topic, messages }) =>
            messages.some((message) => partitionOf(topic, String(message.key)) === badPartition),
          );
          if (touchesBad) {
            const leaderGone = Object.assign(
              new Error('There is no leader for this topic-partition as we are in the middle of a leadership election'),
              {
                name: 'KafkaJSProtocolError',
                type: 'LEADER_NOT_AVAILABLE',
                retriable: true,
              },
            );
            throw Object.assign(new Error(leaderGone.message), {
              name: 'KafkaJSNumberOfRetriesExceeded',
              cause: leaderGone,
              originalError: leaderGone,
            });
          }
          return sendBatch(batch);
        };
        return producer;
      };
    },
  });
}

async function relayModule(
  database: string,
  kafkaBrokers: string[],
  config: Record<string, string>,
  wrap?: (kafka: Kafka) => Kafka,
): Promise<TestingModule> {
  const kafka = createKafka({ brokers: kafkaBrokers, clientId: uniqueName('test-relay-partitions') });
  let builder = Test.createTestingModule({
    imports: [
      DatabaseModule.forRoot({
        useFactory: () =>
          createDataSource({
            serverUrl,
            database,
            entities: [OutboxMessage],
            migrations: [CreateOutboxMessages1764460800010, PartitionOutboxMessages1764460801000],
            poolSize: 4,
          }),
      }),
      KafkaModule.forRoot({ useFactory: () => ({ brokers: kafkaBrokers, clientId: uniqueName('test-relay-partitions') }) }),
      MetricsModule.forRoot({ service: 'outbox-relay-partitions-test' }),
      ScheduleModule.forRoot(),
      OutboxModule.forRoot(loadConfig(outboxEnv, { ...baseConfig, ...config })),
      OutboxModule.forFeature(),
    ],
  });
  if (wrap) builder = builder.overrideProvider(Kafka).useValue(wrap(kafka));
  const moduleRef = await builder.compile();
  await moduleRef.init();
  return moduleRef;
}

function event(topic: string, aggregateId: string, messageType = 'ThingHappened'): OutboxEvent {
  return {
    message: testMessage(topic, messageType),
    aggregateType: 'thing',
    aggregateId,
    payload: { aggregateId, messageType },
    correlationId: `corr-${aggregateId}`,
  };
}

async function write(moduleRef: TestingModule, events: OutboxEvent[]): Promise<string[]> {
  return moduleRef.get(TransactionContext).run(async () => {
    const ids: string[] = [];
    for (const one of events) ids.push(await moduleRef.get(OutboxWriter).add(one));
    return ids;
  });
}

/** True when another session can take the relay's advisory lock right now (nobody holds it). */
async function relayLockIsFree(database: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query("SELECT pg_try_advisory_xact_lock(hashtext('outbox_messages.relay')) AS free");
    await client.query('ROLLBACK');
    return rows[0].free === true;
  } finally {
    await client.end();
  }
}

describe.each(OUTBOX_LAYER_MODES)('OutboxRelay when part of Kafka fails, with %s (real Postgres and Kafka)', (_mode, layerEnv) => {
  const moduleFor = (database: string, kafkaBrokers: string[], config: Record<string, string>, wrap?: (kafka: Kafka) => Kafka) =>
    relayModule(database, kafkaBrokers, { ...layerEnv, ...config }, wrap);
  let database: string;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_partitions');
    const migrations = createDataSource({
      serverUrl,
      database,
      entities: [OutboxMessage],
      migrations: [CreateOutboxMessages1764460800010, PartitionOutboxMessages1764460801000],
    });
    await migrateDatabase(migrations, serverUrl, database);
  });

  afterAll(async () => {
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when one partition has no leader, then rows of the healthy partitions are published and marked, and only the bad partition backs off', async () => {
    const topic = uniqueName('test.outbox-partitions.v1').replace(/_/g, '-');
    await ensureTopics(createKafka({ brokers, clientId: uniqueName('test-topics') }), [topic], PARTITIONS);
    const recorder = await TopicRecorder.start({ brokers, topic, from: await topicEndOffsets(brokers, topic) });
    const moduleRef = await moduleFor(database, brokers, {}, (kafka) => kafkaWithBadPartition(kafka, 1));
    try {
      const aggregates = Array.from({ length: 30 }, (_, n) => uniqueName(`agg${n}`));
      const bad = aggregates.filter((id) => partitionOf(topic, id) === 1);
      const healthy = aggregates.filter((id) => partitionOf(topic, id) !== 1);
      expect(bad.length).toBeGreaterThan(0);
      expect(healthy.length).toBeGreaterThan(0);
      await write(
        moduleRef,
        aggregates.map((id) => event(topic, id)),
      );

      const result = await oneTransaction(moduleRef.get(OutboxRelay));
      expect(result).toEqual({ leader: true, selected: 30, published: healthy.length, failed: bad.length });

      const rows: { aggregate_id: string; published_at: Date | null; attempts: number; last_error: string | null; wait: string }[] =
        await moduleRef
          .get(DataSource)
          .query(
            'SELECT aggregate_id, published_at, attempts, last_error, EXTRACT(EPOCH FROM next_attempt_at - now()) AS wait FROM outbox_messages WHERE topic = $1',
            [topic],
          );
      for (const row of rows.filter((one) => healthy.includes(one.aggregate_id))) expect(row.published_at).toBeInstanceOf(Date);
      for (const row of rows.filter((one) => bad.includes(one.aggregate_id))) {
        expect(row.published_at).toBeNull();
        expect(row.last_error).toMatch(/leader/);
        expect(Number(row.wait)).toBeGreaterThan(29);
      }
      const records = await recorder.waitUntil((all) => all.length >= healthy.length, { description: `${healthy.length} healthy records` });
      expect(records.map((record) => record.key).sort()).toEqual([...healthy].sort());
    } finally {
      await moduleRef.close();
      await recorder.stop();
    }
  });

  it('when a partition has no leader, then its rows retry within OUTBOX_UNAVAILABLE_RETRY_MAX_MS whatever backoff they built up, while a message-level failure keeps its exponential backoff', async () => {
    const topic = uniqueName('test.outbox-unavailable.v1').replace(/_/g, '-');
    await ensureTopics(createKafka({ brokers, clientId: uniqueName('test-topics') }), [topic], PARTITIONS);
    const moduleRef = await moduleFor(database, brokers, { OUTBOX_UNAVAILABLE_RETRY_MAX_MS: '1000' }, (kafka) =>
      kafkaWithBadPartition(kafka, 1),
    );
    try {
      const dataSource = moduleRef.get(DataSource);
      const bad = Array.from({ length: 30 }, (_, n) => uniqueName(`gone${n}`)).filter((id) => partitionOf(topic, id) === 1);
      expect(bad.length).toBeGreaterThan(0);
      // A record larger than the broker's message.max.bytes: refused for what it is, not for where it goes.
      const tooLarge = Array.from({ length: 30 }, (_, n) => uniqueName(`too-large${n}`)).find((id) => partitionOf(topic, id) !== 1)!;
      const oversized = { ...event(topic, tooLarge), payload: { aggregateId: tooLarge, padding: 'x'.repeat(1_100_000) } };
      await write(moduleRef, [...bad.map((id) => event(topic, id)), oversized]);
      // Rows that have failed eight times: the exponential step is far above the cap by now.
      await dataSource.query('UPDATE outbox_messages SET attempts = 8 WHERE topic = $1', [topic]);

      await oneTransaction(moduleRef.get(OutboxRelay));

      const rows: { aggregate_id: string; published_at: Date | null; last_error: string; wait: string }[] = await dataSource.query(
        'SELECT aggregate_id, published_at, last_error, EXTRACT(EPOCH FROM next_attempt_at - now()) AS wait FROM outbox_messages WHERE topic = $1',
        [topic],
      );
      const gone = rows.filter((one) => bad.includes(one.aggregate_id));
      expect(gone).toHaveLength(bad.length);
      for (const row of gone) {
        expect(row.published_at).toBeNull();
        expect(row.last_error).toMatch(/leader/);
        expect(Number(row.wait)).toBeLessThanOrEqual(1);
      }
      const large = rows.find((one) => one.aggregate_id === tooLarge)!;
      expect(large.published_at).toBeNull();
      expect(Number(large.wait)).toBeGreaterThan(29);
    } finally {
      // Its rows are due again within a second, and the tests below share the table: they must not read them.
      await moduleRef.get(DataSource).query('DELETE FROM outbox_messages WHERE topic = $1', [topic]);
      await moduleRef.close();
    }
  });

  describe('when the broker freezes mid-cycle (a private broker, SIGSTOP)', () => {
    let broker: PrivateKafka;
    let topic: string;

    beforeAll(async () => {
      broker = await PrivateKafka.start();
      topic = uniqueName('test.outbox-frozen.v1').replace(/_/g, '-');
      await ensureTopics(createKafka({ brokers: broker.brokers, clientId: uniqueName('test-topics') }), [topic], PARTITIONS);
    }, 180_000);

    afterAll(async () => {
      await broker?.destroy();
    });

    it('then the batch gives up at OUTBOX_PUBLISH_TIMEOUT_MS, its rows back off, and the lock and transaction are released', async () => {
      const moduleRef = await moduleFor(database, broker.brokers, { OUTBOX_PUBLISH_TIMEOUT_MS: '3000' });
      try {
        const relay = moduleRef.get(OutboxRelay);
        // A first batch connects the producer, so the freeze hits requests on an open connection.
        await write(moduleRef, [event(topic, uniqueName('warm'))]);
        expect(await oneTransaction(relay)).toMatchObject({ published: 1 });

        const ids = await write(
          moduleRef,
          Array.from({ length: 20 }, (_, n) => event(topic, uniqueName(`frozen${n}`))),
        );
        broker.freeze();
        const started = Date.now();
        const result = await oneTransaction(relay);
        const tookMs = Date.now() - started;

        expect(result).toMatchObject({ selected: 20, published: 0, failed: 20 });
        // kafkajs alone would wait 30 s per request, times its retries; the deadline is 3 s.
        expect(tookMs).toBeLessThan(10_000);
        expect(await relayLockIsFree(database)).toBe(true);
        const pending = await moduleRef
          .get(DataSource)
          .query(
            'SELECT count(*)::int AS n FROM outbox_messages WHERE id = ANY($1::uuid[]) AND published_at IS NULL AND attempts = 1 AND next_attempt_at > now()',
            [ids],
          );
        expect(pending).toEqual([{ n: 20 }]);
      } finally {
        broker.thaw();
        await moduleRef.close();
      }
    });

    it('then stopping the relay abandons the send in flight and returns within seconds, not at the deadline', async () => {
      const moduleRef = await moduleFor(database, broker.brokers, { OUTBOX_PUBLISH_TIMEOUT_MS: '600000' });
      const relay = moduleRef.get(OutboxRelay);
      try {
        await moduleRef.get(DataSource).query('UPDATE outbox_messages SET next_attempt_at = now() WHERE published_at IS NULL');
        await write(moduleRef, [event(topic, uniqueName('stuck'))]);
        broker.freeze();
        relay.wake();
        await waitForRelayInTransaction(database);

        const started = Date.now();
        await relay.stop();
        expect(Date.now() - started).toBeLessThan(5000);
        expect(await relayLockIsFree(database)).toBe(true);
      } finally {
        broker.thaw();
        await moduleRef.close();
      }
    });
  });
});

/** Resolves once some session holds the relay's advisory lock (a batch is in flight). */
async function waitForRelayInTransaction(database: string): Promise<void> {
  await waitFor(async () => !(await relayLockIsFree(database)), {
    timeoutMs: 30_000,
    intervalMs: 50,
    description: 'a relay batch holding the lock',
  });
}
