import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { Headers, type MessageDeclaration } from '@libs/envelope';
import { createDataSource, DatabaseModule, databaseUrl, migrateDatabase, TransactionContext } from '@libs/database';
import { createKafka, ensureTopics, KafkaModule } from '@libs/kafka';
import { MetricsModule } from '@libs/metrics';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, freePort, topicEndOffsets, TopicRecorder, uniqueName } from '@tools/test-support';
import { CreateOutboxMessages1764460800010 } from '../storage/create-outbox-messages.migration.js';
import { PartitionOutboxMessages1764460801000 } from '../storage/partition-outbox-messages.migration.js';
import { OutboxMessage } from '../storage/outbox-message.entity.js';
import type { OutboxEvent } from '../write/outbox.event.js';
import { outboxEnv } from '../outbox.config.js';
import { OutboxModule } from '../outbox.module.js';
import { OutboxPublisher, type PublishOutcome } from '../transport/outbox.publisher.js';
import { OUTBOX_LAYER_MODES, oneTransaction, readAheadOff } from '../layers/outbox-layers.fixture.js';
import { OutboxRelay, type TransactionResult } from './outbox.relay.js';
import { OutboxWriter } from '../write/outbox.writer.js';

/** A declaration of a test type: any object payload; the relay never looks inside. */
const testMessage = (topic: string, type: string): MessageDeclaration => ({
  topic,
  type,
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.looseObject({}),
});

const { serverUrl, brokers } = testInfrastructure();

/** The relay runs only when a test calls it: no interval, no LISTEN, nothing in the background. */
const baseConfig = {
  OUTBOX_RELAY_ENABLED: 'false',
  OUTBOX_LISTEN_ENABLED: 'false',
  OUTBOX_RETRY_BASE_MS: '60000',
  OUTBOX_RETRY_MAX_MS: '120000',
  // The backoff assertions below read the exponential delay; the cap for an unavailable cluster has its own test.
  OUTBOX_UNAVAILABLE_RETRY_MAX_MS: '120000',
};

/**
 * A publisher that holds every batch until the test lets it go: the test can look at the database
 * while the relay waits for Kafka's answer.
 */
class GatedPublisher extends OutboxPublisher {
  entered: Promise<void>;
  private enter!: () => void;
  private release!: () => void;
  private gate: Promise<void>;

  constructor(kafka: Kafka) {
    super(kafka);
    this.entered = new Promise((resolve) => (this.enter = resolve));
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
  }

  override async publish(rows: OutboxMessage[]): Promise<PublishOutcome> {
    this.enter();
    await this.gate;
    return super.publish(rows);
  }
}

async function relayModule(
  database: string,
  overrides: { kafka?: Kafka; gated?: boolean; config?: Record<string, string> } = {},
): Promise<TestingModule> {
  const moduleConfig = loadConfig(outboxEnv, { ...baseConfig, ...overrides.config });
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
      KafkaModule.forRoot({ useFactory: () => ({ brokers, clientId: uniqueName('test-relay') }) }),
      MetricsModule.forRoot({ service: 'outbox-relay-test' }),
      ScheduleModule.forRoot(),
      OutboxModule.forRoot(moduleConfig),
      OutboxModule.forFeature(),
    ],
  });
  if (overrides.kafka) builder = builder.overrideProvider(Kafka).useValue(overrides.kafka);
  if (overrides.gated)
    builder = builder
      .overrideProvider(OutboxPublisher)
      .useFactory({ factory: (kafka: Kafka) => new GatedPublisher(kafka), inject: [Kafka] });
  const moduleRef = await builder.compile();
  await moduleRef.init();
  return moduleRef;
}

describe.each(OUTBOX_LAYER_MODES)('OutboxRelay with %s (real Postgres and Kafka)', (_mode, layerEnv) => {
  const moduleFor = (database: string, overrides: Parameters<typeof relayModule>[1] = {}) =>
    relayModule(database, { ...overrides, config: { ...layerEnv, ...overrides.config } });
  let database: string;
  let topic: string;
  let moduleRef: TestingModule;
  let relay: OutboxRelay;
  let recorder: TopicRecorder;

  const event = (aggregateId: string, messageType = 'ThingHappened'): OutboxEvent => ({
    message: testMessage(topic, messageType),
    aggregateType: 'thing',
    aggregateId,
    payload: { aggregateId, messageType },
    correlationId: `corr-${aggregateId}`,
  });
  const write = (module: TestingModule, ...events: OutboxEvent[]) =>
    module.get(TransactionContext).run(async () => {
      const ids: string[] = [];
      for (const one of events) ids.push(await module.get(OutboxWriter).add(one));
      return ids;
    });
  const row = async (id: string) => (await moduleRef.get(DataSource).query('SELECT * FROM outbox_messages WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_relay');
    const migrations = createDataSource({
      serverUrl,
      database,
      entities: [OutboxMessage],
      migrations: [CreateOutboxMessages1764460800010, PartitionOutboxMessages1764460801000],
    });
    await migrateDatabase(migrations, serverUrl, database);
    topic = uniqueName('test.outbox-relay.v1').replace(/_/g, '-');
    await ensureTopics(createKafka({ brokers, clientId: uniqueName('test-topics') }), [topic], 3);
    recorder = await TopicRecorder.start({ brokers, topic, from: await topicEndOffsets(brokers, topic) });
    moduleRef = await moduleFor(database);
    relay = moduleRef.get(OutboxRelay);
  });

  afterAll(async () => {
    await moduleRef?.close();
    await recorder?.stop();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when Kafka acknowledges, then the row is marked published and the record has key = aggregate id, the payload as value and the envelope headers (message-id = row id)', async () => {
    const aggregateId = uniqueName('acked');
    const [id] = await write(moduleRef, event(aggregateId));

    expect(await oneTransaction(relay)).toEqual({ leader: true, selected: 1, published: 1, failed: 0 });

    const published = await row(id);
    expect(published.published_at).toBeInstanceOf(Date);
    expect(published.attempts).toBe(1);
    const [record] = (
      await recorder.waitUntil((all) => all.some((message) => message.key === aggregateId), { description: `the record of ${aggregateId}` })
    ).filter((message) => message.key === aggregateId);
    expect(record.value).toEqual({ aggregateId, messageType: 'ThingHappened' });
    expect(record.headers).toEqual(published.headers);
    expect(record.headers).toMatchObject({
      [Headers.messageId]: id,
      [Headers.messageType]: 'ThingHappened',
      [Headers.schemaVersion]: '1',
      [Headers.aggregateId]: aggregateId,
      [Headers.correlationId]: `corr-${aggregateId}`,
    });
    expect(Object.keys(record.headers).sort()).toEqual(
      [
        Headers.messageId,
        Headers.messageType,
        Headers.schemaVersion,
        Headers.aggregateId,
        Headers.occurredAt,
        Headers.correlationId,
        Headers.traceparent,
      ].sort(),
    );
  });

  it('when Kafka has not answered yet, then the row is still pending; it is marked only once the ack is in', async () => {
    const gated = await moduleFor(database, { gated: true });
    try {
      const aggregateId = uniqueName('gated');
      const [id] = await write(gated, event(aggregateId));
      const publisher = gated.get<OutboxPublisher, GatedPublisher>(OutboxPublisher);
      const batch = oneTransaction(gated.get(OutboxRelay));
      await publisher.entered;

      // Seen from outside, as any other relay or an operator sees it.
      const client = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
      await client.connect();
      try {
        const during = await client.query('SELECT published_at FROM outbox_messages WHERE id = $1', [id]);
        expect(during.rows[0].published_at).toBeNull();
        publisher.open();
        expect(await batch).toMatchObject({ published: 1 });
        const after = await client.query('SELECT published_at FROM outbox_messages WHERE id = $1', [id]);
        expect(after.rows[0].published_at).toBeInstanceOf(Date);
      } finally {
        await client.end();
      }
      await recorder.waitUntil((all) => all.some((message) => message.key === aggregateId), {
        description: `the record of ${aggregateId}`,
      });
    } finally {
      await gated.close();
    }
  });

  it('when the broker cannot be reached, then the row stays pending with the attempt, the error and a later retry time', async () => {
    // A port nobody listens on, and no client retries: the failure is immediate and real.
    const unreachable = new Kafka({
      brokers: [`127.0.0.1:${await freePort()}`],
      clientId: 'unreachable',
      retry: { retries: 0 },
      connectionTimeout: 500,
      logLevel: logLevel.NOTHING,
    });
    const failing = await moduleFor(database, { kafka: unreachable });
    try {
      const aggregateId = uniqueName('unacked');
      const [id] = await write(failing, event(aggregateId));

      expect(await oneTransaction(failing.get(OutboxRelay))).toEqual({ leader: true, selected: 1, published: 0, failed: 1 });

      const pending = await row(id);
      expect(pending.published_at).toBeNull();
      expect(pending.attempts).toBe(1);
      expect(pending.last_error).toMatch(/KafkaJS\w*Error|ECONNREFUSED|Connection/);
      // OUTBOX_RETRY_BASE_MS is 60 s: the first retry comes after 30 to 60 s.
      const [{ wait }] = await moduleRef
        .get(DataSource)
        .query('SELECT EXTRACT(EPOCH FROM next_attempt_at - now()) AS wait FROM outbox_messages WHERE id = $1', [id]);
      expect(Number(wait)).toBeGreaterThan(29);
      expect(Number(wait)).toBeLessThanOrEqual(60);

      // Waiting out its retry time, it is not due: the healthy relay leaves it alone.
      expect(await oneTransaction(relay)).toMatchObject({ selected: 0 });
    } finally {
      await failing.close();
    }
  });

  it('when another relay holds the leader lock, then this one publishes nothing; when the lock is free, it publishes', async () => {
    const aggregateId = uniqueName('leader');
    const [id] = await write(moduleRef, event(aggregateId));
    const other = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query("SELECT pg_advisory_xact_lock(hashtext('outbox_messages.relay'))");
      expect(await oneTransaction(relay)).toEqual({ leader: false, selected: 0, published: 0, failed: 0 });
      expect((await row(id)).published_at).toBeNull();
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    expect(await oneTransaction(relay)).toMatchObject({ leader: true, published: 1 });
    expect((await row(id)).published_at).toBeInstanceOf(Date);
  });

  it("when an aggregate's earliest pending row waits out a retry, then its later rows wait too while other aggregates are published", async () => {
    const blocked = uniqueName('blocked');
    const free = uniqueName('free');
    const [first, second] = await write(moduleRef, event(blocked, 'First'), event(blocked, 'Second'));
    const [other] = await write(moduleRef, event(free));
    await moduleRef
      .get(DataSource)
      .query("UPDATE outbox_messages SET attempts = 1, next_attempt_at = now() + interval '1 hour' WHERE id = $1", [first]);

    expect(await oneTransaction(relay)).toMatchObject({ selected: 1, published: 1 });
    expect((await row(other)).published_at).toBeInstanceOf(Date);
    expect((await row(first)).published_at).toBeNull();
    expect((await row(second)).published_at).toBeNull();

    await moduleRef.get(DataSource).query('UPDATE outbox_messages SET next_attempt_at = now() WHERE id = $1', [first]);
    expect(await oneTransaction(relay)).toMatchObject({ selected: 2, published: 2 });
    const records = (
      await recorder.waitUntil((all) => all.filter((message) => message.key === blocked).length === 2, {
        description: `both records of ${blocked}`,
      })
    ).filter((message) => message.key === blocked);
    expect(records.map((message) => message.headers[Headers.messageType])).toEqual(['First', 'Second']);
  });

  it('when several batches are due, then every row is published once and each aggregate keeps its order (read-ahead: in one transaction, each batch read while the previous one is sent; core: a transaction per batch)', async () => {
    const small = await moduleFor(database, { config: { OUTBOX_BATCH_SIZE: '2' } });
    try {
      const first = uniqueName('pipelined-a');
      const second = uniqueName('pipelined-b');
      const events = Array.from({ length: 7 }, (_, n) => event(n % 2 === 0 ? first : second, `Step${n + 1}`));
      const ids = await write(small, ...events);

      const results: TransactionResult[] = [];
      do results.push(await small.get(OutboxRelay).publishBatches(10));
      while (results[results.length - 1].moreDue && results.length < 10);
      if (readAheadOff(layerEnv)) {
        const batch = (selected: number, moreDue: boolean) => ({
          leader: true,
          selected,
          published: selected,
          failed: 0,
          batches: 1,
          moreDue,
        });
        expect(results).toEqual([batch(2, true), batch(2, true), batch(2, true), batch(1, false)]);
      } else {
        expect(results).toEqual([{ leader: true, selected: 7, published: 7, failed: 0, batches: 4, moreDue: false }]);
      }

      const [{ pending }] = await moduleRef
        .get(DataSource)
        .query('SELECT count(*)::int AS pending FROM outbox_messages WHERE id = ANY($1::uuid[]) AND published_at IS NULL', [ids]);
      expect(pending).toBe(0);
      const records = await recorder.waitUntil(
        (all) => all.filter((message) => message.key === first || message.key === second).length >= 7,
        {
          description: `7 records of ${first} and ${second}`,
        },
      );
      const types = (key: string) =>
        records.filter((message) => message.key === key).map((message) => message.headers[Headers.messageType]);
      expect(types(first)).toEqual(['Step1', 'Step3', 'Step5', 'Step7']);
      expect(types(second)).toEqual(['Step2', 'Step4', 'Step6']);
    } finally {
      await small.close();
    }
  });

  it('when the backlog is larger than one cycle may publish, then the relay keeps going without waiting for a NOTIFY or poll tick', async () => {
    // Two rows per batch, one batch per cycle: five rows need three cycles from one wake-up.
    const small = await moduleFor(database, { config: { OUTBOX_BATCH_SIZE: '2', OUTBOX_MAX_BATCHES_PER_CYCLE: '1' } });
    try {
      const aggregateId = uniqueName('backlog');
      const ids = await write(small, ...Array.from({ length: 5 }, (_, n) => event(aggregateId, `Step${n + 1}`)));
      const smallRelay = small.get(OutboxRelay);

      smallRelay.wake();
      await smallRelay.idle();

      const rows: { published_at: Date | null }[] = await moduleRef
        .get(DataSource)
        .query('SELECT published_at FROM outbox_messages WHERE id = ANY($1::uuid[])', [ids]);
      expect(rows.filter((one) => one.published_at === null)).toEqual([]);
      const records = (
        await recorder.waitUntil((all) => all.filter((message) => message.key === aggregateId).length === 5, {
          description: `5 records of ${aggregateId}`,
        })
      ).filter((message) => message.key === aggregateId);
      expect(records.map((message) => message.headers[Headers.messageType])).toEqual(['Step1', 'Step2', 'Step3', 'Step4', 'Step5']);
    } finally {
      await small.close();
    }
  });
});
