import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { Kafka } from 'kafkajs';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import type { MessageDeclaration } from '@libs/envelope';
import { createDataSource, DatabaseModule, migrateDatabase, TransactionContext } from '@libs/database';
import { createKafka, ensureTopics, KafkaModule } from '@libs/kafka';
import { MetricsModule } from '@libs/metrics';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, uniqueName } from '@tools/test-support';
import { CreateOutboxMessages1764460800010 } from '../storage/create-outbox-messages.migration.js';
import { PartitionOutboxMessages1764460801000 } from '../storage/partition-outbox-messages.migration.js';
import { OutboxMessage } from '../storage/outbox-message.entity.js';
import { outboxEnv } from '../outbox.config.js';
import { OutboxModule } from '../outbox.module.js';
import { OUTBOX_LAYER_MODES, readAheadOff } from '../layers/outbox-layers.fixture.js';
import { OutboxRelay, type TransactionResult } from './outbox.relay.js';
import { OutboxWriter } from '../write/outbox.writer.js';

/**
 * The relay's round trips, counted (each one is CPU on both sides, so the count is kept from
 * growing): Postgres queries as the `pg` client sends them (one call is one round trip, however many
 * statements its text holds) and Kafka Produce requests as the producer reports them. One Produce
 * request per batch, across topics, either way. With the read-ahead layer, a transaction of B full
 * batches costs B + 4 Postgres round trips (BEGIN with the lock, the first read, one mark-and-read
 * per batch, the last mark, COMMIT). The core alone costs 4 per batch (BEGIN with the lock, read,
 * mark, COMMIT), in a transaction each, and 3 for the transaction that finds nothing more due.
 * Counts, not speed: speed is the bench's.
 */
const { serverUrl, brokers } = testInfrastructure();

const BATCH_SIZE = 5;
const BATCHES = 3;

const testMessage = (topic: string): MessageDeclaration => ({
  topic,
  type: 'ThingHappened',
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.looseObject({}),
});

describe.each(OUTBOX_LAYER_MODES)('OutboxRelay round trips per batch, with %s (real Postgres and Kafka)', (_mode, layerEnv) => {
  let database: string;
  let topics: string[];
  let moduleRef: TestingModule;
  const produceRequests: string[] = [];
  const queries: string[] = [];
  const clientQuery = pg.Client.prototype.query;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_round_trips');
    const options = {
      serverUrl,
      database,
      entities: [OutboxMessage],
      migrations: [CreateOutboxMessages1764460800010, PartitionOutboxMessages1764460801000],
    };
    await migrateDatabase(createDataSource(options), serverUrl, database);
    topics = [uniqueName('test.round-trips-a.v1'), uniqueName('test.round-trips-b.v1')].map((name) => name.replace(/_/g, '-'));
    await ensureTopics(createKafka({ brokers, clientId: uniqueName('test-topics') }), topics, 3);
    // The relay's producer, created inside OutboxPublisher, reports its requests here.
    const kafka = createKafka({ brokers, clientId: uniqueName('test-round-trips') });
    const createProducer = kafka.producer.bind(kafka);
    kafka.producer = (producerOptions) => {
      const producer = createProducer(producerOptions);
      producer.on(producer.events.REQUEST, ({ payload }) => {
        if (payload.apiName === 'Produce') produceRequests.push(payload.apiName);
      });
      return producer;
    };
    moduleRef = await Test.createTestingModule({
      imports: [
        DatabaseModule.forRoot({ useFactory: () => createDataSource({ ...options, poolSize: 2 }) }),
        KafkaModule.forRoot({ useFactory: () => ({ brokers, clientId: uniqueName('test-round-trips') }) }),
        MetricsModule.forRoot({ service: 'outbox-round-trips-test' }),
        ScheduleModule.forRoot(),
        OutboxModule.forRoot(
          loadConfig(outboxEnv, {
            OUTBOX_RELAY_ENABLED: 'false',
            OUTBOX_LISTEN_ENABLED: 'false',
            OUTBOX_BATCH_SIZE: String(BATCH_SIZE),
            OUTBOX_BATCHES_PER_TRANSACTION: '10',
            ...layerEnv,
          }),
        ),
        OutboxModule.forFeature(),
      ],
    })
      .overrideProvider(Kafka)
      .useValue(kafka)
      .compile();
    await moduleRef.init();
  });

  afterAll(async () => {
    pg.Client.prototype.query = clientQuery;
    await moduleRef?.close();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  const pipelined = !readAheadOff(layerEnv);
  const expectedRoundTrips = pipelined ? BATCHES + 4 : 4 * BATCHES + 3;
  it(`when ${BATCHES} full batches of two topics are due, then publishing them costs ${expectedRoundTrips} Postgres round trips and ${BATCHES} Produce requests`, async () => {
    const write = (count: number) =>
      moduleRef.get(TransactionContext).run(async () => {
        for (let n = 0; n < count; n += 1) {
          const aggregateId = uniqueName(`thing-${n}`);
          await moduleRef
            .get(OutboxWriter)
            .add({ message: testMessage(topics[n % 2]), aggregateType: 'thing', aggregateId, payload: { aggregateId } });
        }
      });
    const relay = moduleRef.get(OutboxRelay);
    // Warm-up: the producer connects and fetches metadata outside the counted transaction.
    await write(BATCH_SIZE);
    expect(await relay.publishBatches(1)).toMatchObject({ published: BATCH_SIZE, failed: 0 });
    await write(BATCHES * BATCH_SIZE);
    produceRequests.length = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      queries.push(typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 60) : 'query object');
      return (clientQuery as (...all: unknown[]) => unknown).apply(this, args);
    } as typeof clientQuery;
    const results: TransactionResult[] = [];
    try {
      // Transactions until one says nothing more is due: one with the read-ahead, BATCHES + 1 without.
      do results.push(await relay.publishBatches(10));
      while (results[results.length - 1].moreDue && results.length <= BATCHES + 1);
    } finally {
      pg.Client.prototype.query = clientQuery;
    }

    if (pipelined) {
      expect(results).toEqual([
        { leader: true, selected: BATCHES * BATCH_SIZE, batches: BATCHES, published: BATCHES * BATCH_SIZE, failed: 0, moreDue: false },
      ]);
    } else {
      const oneBatch = { leader: true, selected: BATCH_SIZE, batches: 1, published: BATCH_SIZE, failed: 0, moreDue: true };
      const nothingDue = { leader: true, selected: 0, batches: 0, published: 0, failed: 0, moreDue: false };
      expect(results).toEqual([...Array.from({ length: BATCHES }, () => oneBatch), nothingDue]);
    }
    expect(queries).toHaveLength(expectedRoundTrips);
    // The relaxed-commit layer goes with BEGIN and the lock, in the same round trip.
    const begins = queries.filter((text) => text.startsWith('START TRANSACTION'));
    expect(begins).toHaveLength(results.length);
    for (const begin of begins) expect(begin.includes('synchronous_commit = off')).toBe(layerEnv.OUTBOX_RELAXED_COMMIT_ENABLED !== 'false');
    expect(produceRequests).toHaveLength(BATCHES);
    const [{ pending }] = await moduleRef
      .get(DataSource)
      .query('SELECT count(*)::int AS pending FROM outbox_messages WHERE published_at IS NULL');
    expect(pending).toBe(0);
  });
});
