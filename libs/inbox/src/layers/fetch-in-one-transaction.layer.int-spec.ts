import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { z } from 'zod';
import type { Consumer } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { TransactionContext } from '@libs/database';
import { DeadLetterHeaders, Headers, type MessageDeclaration } from '@libs/envelope';
import { InboxTestStack, testInfrastructure } from '@test/fixtures';
import { uniqueName, waitFor } from '@tools/test-support';
import type { InboxBatch } from '../core/inbox.batch.js';
import { InboxConsumer } from '../core/inbox.consumer.js';
import { InboxTransaction } from '../core/inbox.transaction.js';
import { type InboxConfig, inboxEnv } from '../inbox.config.js';
import { eachMessage } from '../routing/consumed-topic.declaration.js';
import { inboxRoute, type InboxRoute } from '../routing/inbox.route.js';
import type { InboxEnvelope, RawInboxMessage } from '../envelope/inbox.envelope.js';
import { InboxKafkaServer } from '../transport/inbox-kafka.server.js';
import type { InboxRoutes } from '../routing/inbox-routes.registry.js';
import { InboxMetrics } from '../telemetry/inbox.metrics.js';
import { FetchInOneTransaction } from './fetch-in-one-transaction.layer.js';
import { LayeredInbox } from './inbox.layers.js';
import { PartitionInOneTransaction } from './partition-in-one-transaction.layer.js';

/**
 * The partitions of one fetch in one inbox transaction (the layer's `together`, and the Kafka
 * server whose batches it gathers): fewer transactions, and still every failure kept to its own
 * partition. Real Postgres, a real dead-letter topic, and a real three-partition topic where the
 * fetch is the point. Which transaction ran a handler is read from Postgres (`txid_current()`).
 */
const stack = new InboxTestStack('inbox-together', { partitions: 3, effectColumns: 'message_id uuid NOT NULL, txid bigint NOT NULL' });
const { topic } = stack;
const consumer = 'test.inbox-together';

const ThingHappened = {
  topic,
  type: 'ThingHappened',
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.strictObject({ thingId: z.guid() }),
} satisfies MessageDeclaration;

const offsets = new Map<number, number>();

/** A valid record on `partition` (its offsets count up per partition), or the same message again with `messageId`. */
function record(partition: number, options: { messageId?: string; value?: unknown } = {}): RawInboxMessage {
  const offset = (offsets.get(partition) ?? 0) + 1;
  offsets.set(partition, offset);
  return {
    topic,
    partition,
    offset: String(offset),
    key: `key-${partition}`,
    value: 'value' in options ? options.value : { thingId: randomUUID() },
    headers: {
      [Headers.messageId]: options.messageId ?? randomUUID(),
      [Headers.messageType]: 'ThingHappened',
      [Headers.schemaVersion]: '1',
    },
  };
}

const idOf = (raw: RawInboxMessage) => raw.headers[Headers.messageId] as string;

/** One partition's batch; `resolved` and `retries` record what the inbox asked of it. */
function batchOf(records: RawInboxMessage[]) {
  const resolved: string[] = [];
  const retries: number[] = [];
  const batch: InboxBatch = {
    topic,
    partition: records[0].partition,
    records,
    resolve: (one) => void resolved.push(one.offset),
    heartbeat: async () => undefined,
    isActive: () => true,
    retryLater: (delayMs) => void retries.push(delayMs),
  };
  return { batch, resolved, retries };
}

/** The batches of `parts` consumed together; the outcomes of each, once all are settled. */
function consumeAll(layer: FetchInOneTransaction, parts: { batch: InboxBatch }[], route: InboxRoute) {
  return Promise.all(
    layer.together(
      parts.map((part) => part.batch),
      route,
    ),
  );
}

/** An inbox on `dataSource` whose handler records each message with the transaction it ran in; `failOn` makes it throw for that id. */
function inboxOn(dataSource: DataSource, batchSize: number, failOn?: string) {
  const tx = new TransactionContext(dataSource);
  const metrics = new InboxMetrics(new Registry());
  const config: InboxConfig = { ...loadConfig(inboxEnv, {}), INBOX_BATCH_SIZE: batchSize, INBOX_RETRY_BASE_MS: 10, INBOX_RETRY_MAX_MS: 50 };
  // The layer over the one below it, as LayeredInbox stacks them; `inbox` is the whole stack, for the Kafka server.
  const transaction = new InboxTransaction(tx, stack.deadLetters, metrics, config);
  const core = new InboxConsumer(transaction, config);
  const partition = new PartitionInOneTransaction(core, transaction, batchSize);
  const layer = new FetchInOneTransaction(core, transaction, (batch, route) => partition.inChunks(batch, route), batchSize);
  const inbox = new LayeredInbox(tx, stack.deadLetters, metrics, config);
  const route: InboxRoute = inboxRoute(
    { topic, consumer, accepts: { ThingHappened } },
    {
      handlers: {
        ThingHappened: eachMessage(async (envelope: InboxEnvelope) => {
          await tx
            .requireManager('test effect')
            .query('INSERT INTO test_effects (message_id, txid) VALUES ($1, txid_current())', [envelope.messageId]);
          if (envelope.messageId === failOn) throw new Error(`cannot handle ${failOn} yet`);
        }),
      },
    },
  );
  return { inbox, layer, route, metrics };
}

/** The transaction each message's effect committed in, by message id; a message without an effect is absent. */
async function transactionsOf(records: RawInboxMessage[]): Promise<Map<string, string>> {
  const rows: { message_id: string; txid: string }[] = await stack.main.query(
    'SELECT message_id, txid FROM test_effects WHERE message_id = ANY($1)',
    [records.map(idOf)],
  );
  return new Map(rows.map((row) => [row.message_id, row.txid]));
}

async function effectCount(messageId: string): Promise<number> {
  const [{ count }] = await stack.main.query('SELECT count(*)::int AS count FROM test_effects WHERE message_id = $1', [messageId]);
  return count;
}

beforeAll(() => stack.start());

afterAll(() => stack.stop());

describe('the partitions of one fetch in one inbox transaction (real Postgres)', () => {
  it('when three partitions are consumed together, then all their records commit in one transaction, in order within each partition, each offset resolved on its own partition', async () => {
    const { layer, route } = inboxOn(stack.main, 100);
    const parts = [[record(0), record(0)], [record(1)], [record(2), record(2), record(2)]].map(batchOf);
    const outcomes = await consumeAll(layer, parts, route);
    expect(outcomes).toEqual([['processed', 'processed'], ['processed'], ['processed', 'processed', 'processed']]);
    const records = parts.flatMap((part) => [...part.batch.records]);
    const transactions = await transactionsOf(records);
    expect(transactions.size).toBe(6);
    expect(new Set(transactions.values()).size).toBe(1);
    for (const part of parts) expect(part.resolved).toEqual(part.batch.records.map((one) => one.offset));
    // Each claim keeps its own record's partition and offset, not the first batch's.
    const claims: { message_id: string; partition: number; offset: string }[] = await stack.main.query(
      'SELECT message_id, partition, "offset" FROM inbox_messages WHERE message_id = ANY($1)',
      [records.map(idOf)],
    );
    expect(
      claims
        .map((claim) => ({ id: claim.message_id, partition: claim.partition, offset: String(claim.offset) }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual(
      records.map((raw) => ({ id: idOf(raw), partition: raw.partition, offset: raw.offset })).sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('when a handler fails on one partition, then the transaction of all rolls back and each partition starts over alone: the others commit, and only the failing partition waits for a retry, with nothing after its failed record run', async () => {
    const failing = record(1);
    const { layer, route, metrics } = inboxOn(stack.main, 100, idOf(failing));
    const first = batchOf([record(0), record(0)]);
    const second = batchOf([record(1), failing, record(1)]);
    const outcomes = await Promise.all(layer.together([first.batch, second.batch], route));
    expect(outcomes).toEqual([
      ['processed', 'processed'],
      ['processed', 'deferred'],
    ]);
    expect(first.resolved).toEqual(first.batch.records.map((one) => one.offset));
    expect(first.retries).toEqual([]);
    expect(second.resolved).toEqual([second.batch.records[0].offset]);
    expect(second.retries).toHaveLength(1);
    const transactions = await transactionsOf([...first.batch.records, ...second.batch.records]);
    expect([...transactions.keys()].sort()).toEqual([...first.batch.records, second.batch.records[0]].map(idOf).sort());
    // Replayed alone, each partition is its own transaction.
    expect(transactions.get(idOf(first.batch.records[0]))).not.toBe(transactions.get(idOf(second.batch.records[0])));
    // The transaction of both, then the second partition's own batch: each fell back once.
    expect((await metrics.batchFallbacks.get()).values).toEqual([expect.objectContaining({ labels: { consumer }, value: 2 })]);
  });

  it('when a record of one partition is malformed, then it alone is dead-lettered, naming its partition, and the valid records of every partition commit in one transaction', async () => {
    const { layer, route } = inboxOn(stack.main, 100);
    const malformed = record(2, { value: { thingId: 'not-a-uuid' } });
    const first = batchOf([record(0)]);
    const third = batchOf([malformed, record(2)]);
    expect(await Promise.all(layer.together([first.batch, third.batch], route))).toEqual([['processed'], ['dead-lettered', 'processed']]);
    const transactions = await transactionsOf([first.batch.records[0], third.batch.records[1]]);
    expect(transactions.size).toBe(2);
    expect(new Set(transactions.values()).size).toBe(1);
    expect(third.resolved).toEqual(third.batch.records.map((one) => one.offset));
    const [letter] = (
      await stack.recorder.waitUntil((messages) => messages.some((m) => m.headers[Headers.messageId] === idOf(malformed)), {
        timeoutMs: 15_000,
        description: 'the dead letter of the malformed record',
      })
    ).filter((m) => m.headers[Headers.messageId] === idOf(malformed));
    expect(letter.headers).toMatchObject({
      [DeadLetterHeaders.reason]: 'SCHEMA_VIOLATION',
      [DeadLetterHeaders.originalPartition]: '2',
      [DeadLetterHeaders.originalOffset]: malformed.offset,
    });
  });

  it('when one message arrives on two partitions of one fetch, then its handler runs once: the second copy is a duplicate', async () => {
    const { layer, route } = inboxOn(stack.main, 100);
    const original = record(0);
    const copy = record(1, { messageId: idOf(original), value: original.value });
    expect(await Promise.all(layer.together([batchOf([original]).batch, batchOf([copy]).batch], route))).toEqual([
      ['processed'],
      ['duplicate'],
    ]);
    expect(await effectCount(idOf(original))).toBe(1);
  });

  it('when INBOX_BATCH_SIZE has no room for a batch, then that batch runs in its own transaction beside the others, and every record commits once', async () => {
    const { layer, route } = inboxOn(stack.main, 4);
    const parts = [
      [record(0), record(0)],
      [record(1), record(1), record(1)],
      [record(2), record(2)],
    ].map(batchOf);
    const outcomes = await consumeAll(layer, parts, route);
    expect(outcomes.flat()).toEqual(Array(7).fill('processed'));
    const transactions = await transactionsOf(parts.flatMap((part) => [...part.batch.records]));
    const [zero, one, two] = parts.map((part) => new Set(part.batch.records.map((raw) => transactions.get(idOf(raw)))));
    expect([zero.size, one.size, two.size]).toEqual([1, 1, 1]);
    // The first and the last fit in 4 together; the middle one (3) did not fit beside the first (2).
    expect([...zero]).toEqual([...two]);
    expect([...one]).not.toEqual([...zero]);
  });

  it('when a batch that ran alone fails after its commit (its heartbeat finds a rebalance), then only that batch rejects: the partitions in the shared transaction still get their outcomes', async () => {
    const { layer, route } = inboxOn(stack.main, 4);
    const first = batchOf([record(0), record(0)]);
    // Three records do not fit beside the first two: this batch runs alone, and its heartbeat after the chunk fails.
    const second = batchOf([record(1), record(1), record(1)]);
    const rebalance = new Error('The group is rebalancing, so a rejoin is needed');
    const third = batchOf([record(2), record(2)]);
    const results = await Promise.allSettled(
      layer.together([first.batch, { ...second.batch, heartbeat: () => Promise.reject(rebalance) }, third.batch], route),
    );
    expect(results).toEqual([
      { status: 'fulfilled', value: ['processed', 'processed'] },
      { status: 'rejected', reason: rebalance },
      { status: 'fulfilled', value: ['processed', 'processed'] },
    ]);
    // Its own transaction committed before the heartbeat; a redelivery after the rejoin finds its records as duplicates.
    expect((await transactionsOf([...second.batch.records])).size).toBe(3);
    expect(first.resolved).toEqual(first.batch.records.map((one) => one.offset));
    expect(third.resolved).toEqual(third.batch.records.map((one) => one.offset));
  });

  it('when the database is unreachable, then every batch consumed together rejects without running a handler or resolving an offset', async () => {
    const { layer, route } = inboxOn(await stack.poolOnDroppedDatabase('gone'), 100);
    const parts = [batchOf([record(0)]), batchOf([record(1)])];
    const results = await Promise.allSettled(
      layer.together(
        parts.map((part) => part.batch),
        route,
      ),
    );
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(parts.flatMap((part) => part.resolved)).toEqual([]);
    expect(await transactionsOf(parts.flatMap((part) => [...part.batch.records]))).toEqual(new Map());
  });
});

describe('the Kafka server handing a fetch of three partitions to the inbox (real Kafka and Postgres)', () => {
  it('when one fetch holds records of three partitions, then they commit in one inbox transaction and every offset is committed', async () => {
    const group = uniqueName('test-inbox-together');
    const producer = stack.kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const admin = stack.kafka.admin();
    await admin.connect();
    const ids = [0, 1, 2].flatMap((partition) => [0, 1].map(() => ({ partition, id: randomUUID() })));
    let kafkaConsumer: Consumer | undefined;
    try {
      // Produced before the group starts: its first fetch holds all three partitions.
      const sent = await producer.send({
        topic,
        acks: -1,
        messages: ids.map(({ partition, id }) => ({
          partition,
          key: id,
          value: JSON.stringify({ thingId: randomUUID() }),
          headers: { [Headers.messageId]: id, [Headers.messageType]: 'ThingHappened', [Headers.schemaVersion]: '1' },
        })),
      });
      const ends = new Map(sent.map((answer) => [answer.partition, Number(answer.baseOffset) + 2]));
      const { inbox, route } = inboxOn(stack.main, 100);
      const routes = { topics: () => [topic], routeOf: () => route } as unknown as InboxRoutes;
      const server = new InboxKafkaServer(
        {
          client: { brokers: testInfrastructure().brokers },
          subscribe: { fromBeginning: true },
          run: { partitionsConsumedConcurrently: 3 },
        },
        inbox,
        routes,
      );
      kafkaConsumer = stack.kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
      await kafkaConsumer.connect();
      await server.bindEvents(kafkaConsumer);
      await waitFor(
        async () => {
          const [{ partitions }] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
          return partitions.every((one) => Number(one.offset) >= (ends.get(one.partition) ?? 0));
        },
        { timeoutMs: 30_000, description: 'the group to commit every partition past the records sent' },
      );
      const rows: { message_id: string; txid: string }[] = await stack.main.query(
        'SELECT message_id, txid FROM test_effects WHERE message_id = ANY($1)',
        [ids.map(({ id }) => id)],
      );
      expect(rows.map((row) => row.message_id).sort()).toEqual(ids.map(({ id }) => id).sort());
      expect(new Set(rows.map((row) => row.txid)).size).toBe(1);
    } finally {
      await kafkaConsumer?.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  });
});
