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
import { CreateOutboxMessages1764460800010 } from './create-outbox-messages.migration.js';
import { OutboxMessage } from './outbox-message.entity.js';
import { outboxEnv } from './outbox.config.js';
import { OutboxModule } from './outbox.module.js';
import { OutboxRelay } from './outbox.relay.js';
import { OutboxWriter } from './outbox.writer.js';

/**
 * The relay's round trips, counted (each one is CPU on both sides, so the count is kept from growing): Postgres queries as the `pg` client sends them (one
 * call is one round trip, however many statements its text holds) and Kafka Produce requests as
 * the producer reports them. A transaction of B full batches costs B + 4 Postgres round trips
 * (BEGIN with the lock, the first read, one mark-and-read per batch, the last mark, COMMIT) and one
 * Produce request per batch, across topics. Counts, not speed: speed is the bench's.
 */
const { serverUrl, brokers } = testInfrastructure();

const BATCH_SIZE = 5;
const BATCHES = 3;

const testMessage = (topic: string): MessageDeclaration => ({ topic, type: 'ThingHappened', schemaVersion: 1, schema: z.looseObject({}) });

describe('OutboxRelay round trips per batch (real Postgres and Kafka)', () => {
  let database: string;
  let topics: string[];
  let moduleRef: TestingModule;
  const produceRequests: string[] = [];
  const queries: string[] = [];
  const clientQuery = pg.Client.prototype.query;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_round_trips');
    const options = { serverUrl, database, entities: [OutboxMessage], migrations: [CreateOutboxMessages1764460800010] };
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

  it(`when ${BATCHES} full batches of two topics are due, then one transaction costs ${BATCHES + 4} Postgres round trips and ${BATCHES} Produce requests`, async () => {
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
    let result;
    try {
      result = await relay.publishBatches(10);
    } finally {
      pg.Client.prototype.query = clientQuery;
    }

    expect(result).toMatchObject({ leader: true, batches: BATCHES, published: BATCHES * BATCH_SIZE, failed: 0, moreDue: false });
    expect(queries).toHaveLength(BATCHES + 4);
    expect(produceRequests).toHaveLength(BATCHES);
    const [{ pending }] = await moduleRef
      .get(DataSource)
      .query('SELECT count(*)::int AS pending FROM outbox_messages WHERE published_at IS NULL');
    expect(pending).toBe(0);
  });
});
