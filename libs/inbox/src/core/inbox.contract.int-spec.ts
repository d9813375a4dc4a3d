import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { z } from 'zod';
import type { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel.js';
import { timeOrderedUuid, TransactionContext } from '@libs/database';
import { loadConfig } from '@libs/config';
import { DeadLetterHeaders, Headers, type MessageDeclaration } from '@libs/envelope';
import { consumeRedelivered, InboxTestStack, testInfrastructure } from '@test/fixtures';
import { type RecordedMessage, uniqueName, waitFor } from '@tools/test-support';
import { type InboxConfig, inboxEnv } from '../inbox.config.js';
import { inboxLayers, LayeredInbox } from '../layers/inbox.layers.js';
import { eachMessage } from '../routing/consumed-topic.declaration.js';
import { inboxRoute, type InboxRoute } from '../routing/inbox.route.js';
import type { InboxBatch } from './inbox.batch.js';
import type { InboxEnvelope, RawInboxMessage } from '../envelope/inbox.envelope.js';
import type { InboxRoutes } from '../routing/inbox-routes.registry.js';
import { inboxKafkaLayers } from '../transport/inbox-kafka.connect.js';
import { InboxKafkaServer } from '../transport/inbox-kafka.server.js';
import { InboxMetrics } from '../telemetry/inbox.metrics.js';

/**
 * The inbox's contract, one suite run against every way of consuming (as Watermill runs one
 * suite over every Pub/Sub): with its speed-up layers as configured by default (a partition's
 * records in one transaction, the partitions of one fetch in one transaction), and as its core
 * alone, every layer in `inboxLayers` switched off (a transaction per record). Real Postgres,
 * a real dead-letter topic, and real Kafka consumption where offsets are the point. The topics
 * are unique to this run, so the DLQ holds nothing but what these tests sent there; the handler
 * accepts one message type, declared here (the inbox knows no domain message).
 */
const stack = new InboxTestStack('inbox-contract', { partitions: 1, effectColumns: 'message_id uuid NOT NULL, worker text NOT NULL' });
const { topic } = stack;
const consumer = 'test.inbox-contract';
const MAX_ATTEMPTS = 3;

const ThingHappened = {
  topic,
  type: 'ThingHappened',
  schemaVersion: 1,
  producer: 'test-producer',
  schema: z.strictObject({ thingId: z.guid(), note: z.string().min(1).max(100) }),
} satisfies MessageDeclaration;
type ThingHappened = z.infer<typeof ThingHappened.schema>;

/** A way of consuming: the environment its configuration is loaded from. */
interface WayOfConsuming {
  name: string;
  env: Record<string, string>;
}

const waysOfConsuming: WayOfConsuming[] = [
  { name: 'with its speed-up layers (the defaults)', env: {} },
  {
    name: 'as its core alone (every speed-up layer off)',
    env: Object.fromEntries(inboxLayers.map((layer) => [layer.switch, 'false'])),
  },
];

/**
 * The records of one partition as a transport hands them over; `resolved` lists the offsets the
 * inbox let advance, `retryLater` what it asks when a handler failed.
 */
function batchOf(records: RawInboxMessage[], resolved: string[] = [], retryLater: (delayMs: number) => void = () => undefined): InboxBatch {
  return {
    topic,
    partition: 0,
    records,
    resolve: (record) => void resolved.push(record.offset),
    heartbeat: async () => undefined,
    isActive: () => true,
    retryLater,
  };
}

/** The route of a handler of ThingHappened that runs `handle` per message. */
function routeOf(handle: (envelope: InboxEnvelope<ThingHappened>) => Promise<void>): InboxRoute {
  return inboxRoute({ topic, consumer, accepts: { ThingHappened } }, { handlers: { ThingHappened: eachMessage(handle) } });
}

let offset = 0;

/**
 * A transaction context that awaits `before(n)` ahead of its n-th outermost transaction (from 1): a test
 * orders one consumer's next claim after another consumer's step, which the scheduler would
 * otherwise decide.
 */
class OrderedTransactions extends TransactionContext {
  private started = 0;

  constructor(
    dataSource: DataSource,
    private readonly before: (ordinal: number) => Promise<void>,
  ) {
    super(dataSource);
  }

  override async run<T>(work: (manager: EntityManager) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    // A nested call joins the open transaction (TransactionContext.run): only a new one is ordered.
    if (!this.isActive) {
      this.started += 1;
      await this.before(this.started);
    }
    return super.run(work, isolation);
  }
}

/**
 * A consumer in miniature: its own transaction context and metrics on `dataSource`, and `effect`,
 * the handler's visible work: a row in a table without a unique constraint, so doubles show.
 * `consume` hands `records` to the inbox as one partition's records, through `handle`, redelivered
 * as Kafka does when a handler fails (see {@link consumeRedelivered}). `beforeTransaction` orders
 * its transactions after another consumer's steps.
 */
function consumerOn(dataSource: DataSource, config: InboxConfig, beforeTransaction?: (ordinal: number) => Promise<void>) {
  const tx = beforeTransaction ? new OrderedTransactions(dataSource, beforeTransaction) : new TransactionContext(dataSource);
  const metrics = new InboxMetrics(new Registry());
  const inbox = new LayeredInbox(tx, stack.deadLetters, metrics, config);
  const effect = async (envelope: InboxEnvelope, worker: string) => {
    await tx
      .requireManager('test effect')
      .query('INSERT INTO test_effects (message_id, worker) VALUES ($1, $2)', [envelope.messageId, worker]);
  };
  const consume = (records: RawInboxMessage[], handle: (envelope: InboxEnvelope<ThingHappened>) => Promise<void>, resolved?: string[]) =>
    consumeRedelivered(records, (pending, retryLater) => inbox.deliver(batchOf(pending, resolved, retryLater), routeOf(handle)));
  return { tx, metrics, inbox, effect, consume };
}

/** A message as the Nest transport hands it to the interceptor (value parsed, headers strings). */
function message(
  options: { messageId?: string; type?: string; value?: unknown; headers?: Record<string, string | undefined> } = {},
): RawInboxMessage {
  const thingId = randomUUID();
  const headers: Record<string, unknown> = {
    // What producers send: their outbox ids, time-ordered, so the claims land in the day partitions.
    [Headers.messageId]: options.messageId ?? timeOrderedUuid(),
    [Headers.messageType]: options.type ?? 'ThingHappened',
    [Headers.schemaVersion]: '1',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  offset += 1;
  return {
    topic,
    partition: 0,
    offset: String(offset),
    key: thingId,
    value: 'value' in options ? options.value : { thingId, note: 'hello' },
    headers,
  };
}

async function effectsOf(dataSource: DataSource, messageId: string): Promise<string[]> {
  const rows: { worker: string }[] = await dataSource.query('SELECT worker FROM test_effects WHERE message_id = $1 ORDER BY worker', [
    messageId,
  ]);
  return rows.map((row) => row.worker);
}

async function dlqRecordOf(raw: RawInboxMessage): Promise<RecordedMessage> {
  const [found] = (
    await stack.recorder.waitUntil((messages) => messages.some((m) => m.headers[DeadLetterHeaders.originalOffset] === raw.offset), {
      timeoutMs: 15_000,
      description: `the dead letter of offset ${raw.offset} on ${stack.dlqTopic}`,
    })
  ).filter((m) => m.headers[DeadLetterHeaders.originalOffset] === raw.offset);
  return found;
}

beforeAll(() => stack.start());

afterAll(() => stack.stop());

describe.each(waysOfConsuming)('the inbox consuming $name (real Postgres and Kafka)', (way) => {
  const config: InboxConfig = {
    ...loadConfig(inboxEnv, way.env),
    INBOX_MAX_ATTEMPTS: MAX_ATTEMPTS,
    INBOX_RETRY_BASE_MS: 10,
    INBOX_RETRY_MAX_MS: 50,
  };
  // Several records of a partition share a transaction only with a layer that puts them in one.
  const batched = config.INBOX_PARTITION_IN_ONE_TRANSACTION_ENABLED || config.INBOX_FETCH_IN_ONE_TRANSACTION_ENABLED;

  it('runs the way it says: the layers on by default, every one off with its switch', () => {
    for (const layer of inboxLayers) expect(config[layer.switch as keyof InboxConfig]).toBe(Object.keys(way.env).length === 0);
  });
  let inbox: ReturnType<typeof consumerOn>;

  beforeEach(() => {
    inbox = consumerOn(stack.main, config);
  });

  it('when the same message is delivered twice, then the handler runs once and the second is a counted duplicate', async () => {
    const raw = message();
    const messageId = raw.headers[Headers.messageId] as string;
    const redelivered = { ...raw, offset: String(Number(raw.offset) + 1000) };
    expect(await inbox.consume([raw], (envelope) => inbox.effect(envelope, 'first'))).toEqual(['processed']);
    expect(await inbox.consume([redelivered], (envelope) => inbox.effect(envelope, 'again'))).toEqual(['duplicate']);

    expect(await effectsOf(stack.main, messageId)).toEqual(['first']);
    expect((await inbox.metrics.duplicates.get()).values).toEqual([expect.objectContaining({ labels: { consumer }, value: 1 })]);
    const rows = await stack.main.query('SELECT topic, partition, "offset", message_type FROM inbox_messages WHERE message_id = $1', [
      messageId,
    ]);
    expect(rows).toEqual([{ topic, partition: 0, offset: raw.offset, message_type: 'ThingHappened' }]);
  });

  it('when one delivery holds two copies of a message id, then the second is a duplicate of the first: one effect', async () => {
    const raw = message();
    const copy = { ...raw, offset: String(Number(raw.offset) + 1000) };
    expect(await inbox.consume([raw, copy], (envelope) => inbox.effect(envelope, 'once'))).toEqual(['processed', 'duplicate']);
    expect(await effectsOf(stack.main, raw.headers[Headers.messageId] as string)).toEqual(['once']);
  });

  it('when a producer sends its message id in upper case, then the copy in lower case is the same message: one effect, stored in lower case', async () => {
    const id = timeOrderedUuid();
    const upper = message({ messageId: id.toUpperCase() });
    const lower = { ...upper, offset: String(Number(upper.offset) + 1000), headers: { ...upper.headers, [Headers.messageId]: id } };
    expect(await inbox.consume([upper, lower], (envelope) => inbox.effect(envelope, 'once'))).toEqual(['processed', 'duplicate']);
    expect(await inbox.consume([upper], (envelope) => inbox.effect(envelope, 'again'))).toEqual(['duplicate']);
    expect(await effectsOf(stack.main, id)).toEqual(['once']);
    expect(await stack.main.query('SELECT message_id FROM inbox_messages WHERE message_id = $1', [id])).toEqual([{ message_id: id }]);
  });

  describe('two consumers racing on one message id, each with its own pool and transaction', () => {
    let second: DataSource;

    beforeAll(async () => {
      second = stack.dataSource('inbox-test-racer-b');
      await second.initialize();
    });

    /** True once racer B's backend waits on a lock: its claim queued behind A's uncommitted row. */
    async function racerBBlocked(): Promise<boolean> {
      const [row] = await stack.main.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'inbox-test-racer-b' AND wait_event_type = 'Lock'",
      );
      return row.n > 0;
    }

    /**
     * Each racer takes the contested record and one of its own. A's handler runs up to the point
     * where it holds the claim inside an open transaction, then B starts and A waits until B is
     * blocked behind it, or B finished: the latter is what a racy claim (check, then insert)
     * would allow, and the assertions then catch it.
     */
    async function race(raw: RawInboxMessage, afterBQueued: (attempt: number) => void) {
      let settledB = false;
      // A's every transaction after its first (its redelivery after the backoff; in batches, its
      // replay alone right after the batch rolled back) starts only once B finished. Once A's first
      // rolled back, which of B's woken claim and A's next claim reaches the key first is the
      // scheduler's choice, not the inbox's (both orders came up in CI), and either way one effect
      // must result: these tests pin the order in which B's claim is the one woken.
      const a = consumerOn(stack.main, config, async (ordinal) => {
        if (ordinal === 1) return;
        await waitFor(() => settledB, { timeoutMs: 15_000, intervalMs: 5, description: "racer B to finish before A's next transaction" });
      });
      const b = consumerOn(second, config);
      const contested = raw.headers[Headers.messageId] as string;
      let attemptsA = 0;
      let sawBBlocked = false;
      let claimedByA!: () => void;
      const aHoldsClaim = new Promise<void>((resolve) => (claimedByA = resolve));

      const outcomeA = a.consume([raw, message()], async (envelope) => {
        await a.effect(envelope, 'a');
        if (envelope.messageId !== contested) return;
        attemptsA += 1;
        if (attemptsA > 1) return;
        claimedByA();
        const state = await waitFor(async () => (settledB ? 'settled' : (await racerBBlocked()) ? 'blocked' : undefined), {
          timeoutMs: 15_000,
          intervalMs: 20,
          description: 'racer B to block on the inbox key, or to finish',
        });
        sawBBlocked = state === 'blocked';
        afterBQueued(attemptsA);
      });
      await aHoldsClaim;
      const outcomeB = b
        .consume([raw, message()], (envelope) => b.effect(envelope, 'b'))
        .finally(() => {
          settledB = true;
        });
      const [outcomesA, outcomesB] = await Promise.all([outcomeA, outcomeB]);
      return { outcomesA, outcomesB, sawBBlocked, attemptsA };
    }

    it('when both consume it concurrently, then the second blocks on the key until the first commits, then skips it: one effect', async () => {
      const raw = message();
      const result = await race(raw, () => undefined);

      expect(await effectsOf(stack.main, raw.headers[Headers.messageId] as string)).toEqual(['a']);
      expect(result.outcomesA).toEqual(['processed', 'processed']);
      expect(result.outcomesB).toEqual(['duplicate', 'processed']);
      expect(result.sawBBlocked).toBe(true);
    });

    it('when the first transaction rolls back, then the blocked one claims the message, and its effect is the only one', async () => {
      const raw = message();
      const result = await race(raw, () => {
        throw new Error('A fails after B queued behind it');
      });

      expect(await effectsOf(stack.main, raw.headers[Headers.messageId] as string)).toEqual(['b']);
      // B takes the claim once A rolls back; A's retry (alone, after its batch rolled back) then finds B's committed row.
      expect(result.outcomesA).toEqual(['duplicate', 'processed']);
      expect(result.outcomesB).toEqual(['processed', 'processed']);
      expect(result.attemptsA).toBe(1);
      expect(result.sawBBlocked).toBe(true);
    });
  });

  it(`when a handler always fails, then it is tried ${MAX_ATTEMPTS} times alone, nothing of it commits, it is dead-lettered with the reason, and the next message is processed`, async () => {
    const raw = message();
    const next = message();
    const messageId = raw.headers[Headers.messageId] as string;
    let calls = 0;
    const resolved: string[] = [];
    const outcomes = await inbox.consume(
      [raw, next],
      async (envelope) => {
        await inbox.effect(envelope, 'doomed');
        if (envelope.messageId !== messageId) return;
        calls += 1;
        throw new TypeError(`cannot handle ${envelope.messageId}`);
      },
      resolved,
    );

    expect(outcomes).toEqual(['dead-lettered', 'processed']);
    // In a batch, the batch's own try comes first; its rollback sends every message on alone.
    expect(calls).toBe(MAX_ATTEMPTS + (batched ? 1 : 0));
    expect(resolved).toEqual([raw.offset, next.offset]);
    expect(await effectsOf(stack.main, messageId)).toEqual([]);
    expect(await effectsOf(stack.main, next.headers[Headers.messageId] as string)).toEqual(['doomed']);
    expect(await stack.main.query('SELECT 1 FROM inbox_messages WHERE message_id = $1', [messageId])).toEqual([]);
    const letter = await dlqRecordOf(raw);
    expect(letter.key).toBe(raw.key);
    expect(letter.value).toEqual(raw.value);
    expect(letter.headers).toMatchObject({
      [Headers.messageId]: messageId,
      [DeadLetterHeaders.reason]: 'HANDLER_FAILED',
      [DeadLetterHeaders.error]: `TypeError: cannot handle ${messageId}`,
      [DeadLetterHeaders.attempts]: String(MAX_ATTEMPTS),
      [DeadLetterHeaders.consumer]: consumer,
      [DeadLetterHeaders.originalTopic]: topic,
      [DeadLetterHeaders.originalPartition]: '0',
      [DeadLetterHeaders.originalOffset]: raw.offset,
    });
    expect((await inbox.metrics.deadLettered.get()).values).toEqual([
      expect.objectContaining({ labels: { consumer, reason: 'HANDLER_FAILED' }, value: 1 }),
    ]);
  });

  it('when a handler fails, then the inbox waits for nothing: it hands the partition back with a backoff, resolves only what came before, and runs nothing after it', async () => {
    const before = message();
    const failing = message();
    const after = message();
    const resolved: string[] = [];
    const retries: number[] = [];
    const seen: string[] = [];
    const outcomes = await inbox.inbox.deliver(
      batchOf([before, failing, after], resolved, (delayMs) => retries.push(delayMs)),
      routeOf(async (envelope) => {
        seen.push(envelope.messageId);
        if (envelope.messageId === failing.headers[Headers.messageId]) throw new Error('not yet');
      }),
    );
    expect(outcomes).toEqual(['processed', 'deferred']);
    expect(resolved).toEqual([before.offset]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toBeGreaterThan(0);
    expect(retries[0]).toBeLessThanOrEqual(config.INBOX_RETRY_MAX_MS);
    expect(seen).not.toContain(after.headers[Headers.messageId]);
  });

  it('when the handler fails once, then the rolled-back attempt leaves nothing and the retry commits exactly one effect', async () => {
    const raw = message();
    let calls = 0;
    const outcomes = await inbox.consume([raw], async (envelope) => {
      calls += 1;
      await inbox.effect(envelope, `call-${calls}`);
      if (calls === 1) throw new Error('transient');
    });
    expect(outcomes).toEqual(['processed']);
    expect(await effectsOf(stack.main, raw.headers[Headers.messageId] as string)).toEqual(['call-2']);
  });

  it.each([
    ['NOT_JSON', () => message({ value: 'this is { not json' })],
    ['MISSING_MESSAGE_ID', () => message({ headers: { [Headers.messageId]: undefined } })],
    ['UNKNOWN_TYPE', () => message({ type: 'ThingForgotten' })],
    ['UNSUPPORTED_SCHEMA_VERSION', () => message({ headers: { [Headers.schemaVersion]: '9' } })],
    ['SCHEMA_VIOLATION', () => message({ value: { thingId: 'not-a-uuid', note: 'hello' } })],
  ])(
    'when a message is malformed (%s), then it is dead-lettered at once with its reason, the handler never sees it, and the valid one beside it is processed',
    async (reason, make) => {
      const raw = make();
      const valid = message();
      const seen: string[] = [];
      const outcomes = await inbox.consume([raw, valid], async (envelope) => void seen.push(envelope.messageId));
      expect(outcomes).toEqual(['dead-lettered', 'processed']);
      expect(seen).toEqual([valid.headers[Headers.messageId]]);
      const letter = await dlqRecordOf(raw);
      expect(letter.headers).toMatchObject({ [DeadLetterHeaders.reason]: reason, [DeadLetterHeaders.attempts]: '0' });
      expect(letter.headers[DeadLetterHeaders.error]).toBeTruthy();
    },
  );

  it('when a binary value is dead-lettered (Nest leaves values starting with a zero byte undecoded), then its bytes arrive unchanged', async () => {
    // Schema-registry framing: magic byte 0, a 4-byte schema id, then Avro/Protobuf bytes, not UTF-8.
    const bytes = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x2a, 0xff, 0xfe, 0x80, 0x01]);
    const raw = message({ value: bytes });
    expect(await inbox.consume([raw], async () => undefined)).toEqual(['dead-lettered']);
    expect((await dlqRecordOf(raw)).headers[DeadLetterHeaders.reason]).toBe('NOT_JSON');

    const consumerOfBytes = stack.kafka.consumer({ groupId: uniqueName('test-dlq-bytes'), maxWaitTimeInMs: 100 });
    let found: Buffer | null | undefined;
    await consumerOfBytes.connect();
    try {
      await consumerOfBytes.subscribe({ topic: stack.dlqTopic, fromBeginning: true });
      await consumerOfBytes.run({
        eachMessage: async ({ message: record }) => {
          if (record.headers?.[DeadLetterHeaders.originalOffset]?.toString() === raw.offset) found = record.value;
        },
      });
      await waitFor(() => found !== undefined, { timeoutMs: 15_000, description: 'the raw dead letter' });
    } finally {
      await consumerOfBytes.disconnect();
    }
    expect(found).toEqual(bytes);
  });

  it('when a message id comes back with another payload, then it is dead-lettered as PAYLOAD_MISMATCH and the first effect stands', async () => {
    const first = message();
    const messageId = first.headers[Headers.messageId] as string;
    const impostor = message({ messageId, value: { thingId: (first.value as ThingHappened).thingId, note: 'changed' } });
    const later = message({ messageId, value: { thingId: (first.value as ThingHappened).thingId, note: 'changed later' } });
    // The impostor in the same delivery as the original, and another one in a later delivery.
    expect(await inbox.consume([first, impostor], (envelope) => inbox.effect(envelope, 'first'))).toEqual(['processed', 'dead-lettered']);
    expect(await inbox.consume([later], (envelope) => inbox.effect(envelope, 'later'))).toEqual(['dead-lettered']);

    expect(await effectsOf(stack.main, messageId)).toEqual(['first']);
    for (const letter of [await dlqRecordOf(impostor), await dlqRecordOf(later)]) {
      expect(letter.headers).toMatchObject({ [DeadLetterHeaders.reason]: 'PAYLOAD_MISMATCH', [DeadLetterHeaders.attempts]: '1' });
    }
    expect((await inbox.metrics.deadLettered.get()).values).toEqual([
      expect.objectContaining({ labels: { consumer, reason: 'PAYLOAD_MISMATCH' }, value: 2 }),
    ]);
  });

  it('when the database is unreachable, then consume rejects without running the handler, dead-lettering or resolving an offset: the records stay for redelivery', async () => {
    const gone = consumerOn(await stack.poolOnDroppedDatabase('gone'), config);
    let calls = 0;
    const resolved: string[] = [];

    await expect(gone.consume([message(), message()], async () => void (calls += 1), resolved)).rejects.toThrow();
    expect(calls).toBe(0);
    expect(resolved).toEqual([]);
    expect((await gone.metrics.deadLettered.get()).values).toEqual([]);
  });

  it('when records are consumed from Kafka through the inbox transport, then an offset advances only after the transaction of its record committed', async () => {
    const group = uniqueName('test-inbox-contract');
    const records = [message(), message(), message()];
    const [first, held] = records.map((record) => record.headers[Headers.messageId] as string);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const resolved: string[] = [];
    const kafkaConsumer = stack.kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
    const producer = stack.kafka.producer({ allowAutoTopicCreation: false });
    await Promise.all([kafkaConsumer.connect(), producer.connect()]);
    const admin = stack.kafka.admin();
    await admin.connect();
    const committed = async () => Number((await admin.fetchOffsets({ groupId: group, topics: [topic] }))[0].partitions[0].offset);
    let server: InboxKafkaServer | undefined;
    try {
      // Produced first, in one request, so one fetch holds all three (a backlog).
      const sent = await producer.send({
        topic,
        acks: -1,
        messages: records.map((record) => ({
          key: record.key,
          value: JSON.stringify(record.value),
          headers: record.headers as Record<string, string>,
        })),
      });
      const base = Number(sent[0].baseOffset);
      const route = routeOf(async (envelope) => {
        await inbox.effect(envelope, 'kafka');
        if (envelope.messageId !== held) return;
        holding = true;
        await released;
      });
      // Through the inbox's Kafka transport, with this way's transport layers (offset commits per
      // interval, the fetch linger) on or off; every offset the inbox resolves is recorded.
      const recorded = {
        deliver: (batch: InboxBatch, to: InboxRoute) =>
          inbox.inbox.deliver({ ...batch, resolve: (record) => (resolved.push(record.offset), batch.resolve(record)) }, to),
      };
      const routes = { topics: () => [topic], routeOf: () => route } as unknown as InboxRoutes;
      server = new InboxKafkaServer(
        { client: { brokers: testInfrastructure().brokers }, subscribe: { fromBeginning: true } },
        recorded,
        routes,
        inboxKafkaLayers(config),
      );
      await server.bindEvents(kafkaConsumer);
      await waitFor(() => holding, { timeoutMs: 30_000, description: 'the handler to hold the second record open' });
      // The topic also holds the other way's records (duplicates to this group's inbox): count this test's own.
      const mine = () => resolved.filter((offset) => Number(offset) >= base);
      const visible = async (id: string) =>
        (await stack.main.query('SELECT 1 FROM inbox_messages WHERE message_id = $1', [id])).length === 1;
      // The held record's transaction is open: its offset has not advanced, nor has any after it.
      expect(mine()).not.toContain(String(base + 1));
      expect(await committed()).toBeLessThanOrEqual(base + 1);
      expect(await visible(held)).toBe(false);
      // One at a time, the first committed alone and only its offset moved; in a batch it shares the open transaction.
      expect(mine()).toEqual(batched ? [] : [String(base)]);
      expect(await visible(first)).toBe(!batched);

      release();
      await waitFor(async () => (await committed()) === base + 3, {
        timeoutMs: 30_000,
        description: 'the offsets to be committed past the third record',
      });
      for (const record of records) expect(await visible(record.headers[Headers.messageId] as string)).toBe(true);
      expect(mine()).toEqual([String(base), String(base + 1), String(base + 2)]);
    } finally {
      release();
      // The last offset commit first (with the layer that paces them), then the consumer leaves.
      await server?.close();
      await kafkaConsumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  });
});
