import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { z } from 'zod';
import type { DataSource } from 'typeorm';
import { createDataSource, dropDatabase, migrateDatabase, TransactionContext } from '@app/database';
import { loadConfig } from '@app/config';
import { DeadLetterHeaders, deadLetterTopic, Headers, type MessageDeclaration } from '@app/envelope';
import { createKafka, ensureTopics } from '@app/kafka';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, type RecordedMessage, TopicRecorder, uniqueName, waitFor } from '@tools/local-stack';
import { CreateInboxMessages1764460800020 } from './create-inbox-messages.migration.js';
import { DeadLetterPublisher } from './dead-letter.publisher.js';
import { type InboxConfig, inboxEnv } from './inbox.config.js';
import type { InboxEnvelope, RawInboxMessage } from './inbox-envelope.js';
import { InboxMessage } from './inbox-message.entity.js';
import { InboxMetrics } from './inbox.metrics.js';
import { InboxProcessor } from './inbox.processor.js';

/**
 * InboxProcessor on its own, against a real Postgres database and a real dead-letter topic: the
 * claim, the race between two transactions, retries, and each dead-letter reason. The topic is
 * unique to this run, so its DLQ holds nothing but what these tests sent there; the handler
 * accepts one message type, declared here (the inbox knows no domain message).
 */
const { serverUrl, brokers } = testInfrastructure();

const topic = uniqueName('test.inbox-processor').replace(/_/g, '-');
const dlqTopic = deadLetterTopic(topic);
const consumer = 'test.inbox-processor';
const MAX_ATTEMPTS = 3;
const config: InboxConfig = {
  ...loadConfig(inboxEnv, {}),
  INBOX_MAX_ATTEMPTS: MAX_ATTEMPTS,
  INBOX_RETRY_BASE_MS: 10,
  INBOX_RETRY_MAX_MS: 50,
};

const ThingHappened = {
  topic: 'test.thing.v1',
  type: 'ThingHappened',
  schemaVersion: 1,
  schema: z.strictObject({ thingId: z.guid(), note: z.string().min(1).max(100) }),
} satisfies MessageDeclaration;
type ThingHappened = z.infer<typeof ThingHappened.schema>;
const handler = { consumer, accepts: [ThingHappened] };

let database: string;
let kafka: ReturnType<typeof createKafka>;
let deadLetters: DeadLetterPublisher;
let recorder: TopicRecorder;
const dataSources: DataSource[] = [];
let offset = 0;

function inboxDataSource(name: string, applicationName: string): DataSource {
  const dataSource = createDataSource({
    serverUrl,
    database: name,
    entities: [InboxMessage],
    migrations: [CreateInboxMessages1764460800020],
    applicationName,
    poolSize: 4,
  });
  dataSources.push(dataSource);
  return dataSource;
}

/**
 * A consumer in miniature: its own transaction context and metrics on `dataSource`, and `effect`,
 * the handler's visible work: a row in a table without a unique constraint, so doubles show.
 */
function consumerOn(dataSource: DataSource) {
  const tx = new TransactionContext(dataSource);
  const metrics = new InboxMetrics(new Registry());
  const processor = new InboxProcessor(tx, deadLetters, metrics, config);
  const effect = async (envelope: InboxEnvelope, worker: string) => {
    await tx
      .requireManager('test effect')
      .query('INSERT INTO test_effects (message_id, worker) VALUES ($1, $2)', [envelope.messageId, worker]);
  };
  return { tx, metrics, processor, effect };
}

/** A message as the Nest transport hands it to the interceptor (value parsed, headers strings). */
function message(
  options: { messageId?: string; type?: string; value?: unknown; headers?: Record<string, string | undefined> } = {},
): RawInboxMessage {
  const thingId = randomUUID();
  const headers: Record<string, unknown> = {
    [Headers.messageId]: options.messageId ?? randomUUID(),
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
    await recorder.waitUntil((messages) => messages.some((m) => m.headers[DeadLetterHeaders.originalOffset] === raw.offset), {
      timeoutMs: 15_000,
      description: `the dead letter of offset ${raw.offset} on ${dlqTopic}`,
    })
  ).filter((m) => m.headers[DeadLetterHeaders.originalOffset] === raw.offset);
  return found;
}

describe('InboxProcessor (real Postgres, real dead-letter topic)', () => {
  let main: DataSource;
  let inbox: ReturnType<typeof consumerOn>;

  beforeAll(async () => {
    kafka = createKafka({ brokers, clientId: uniqueName('test-inbox-processor') });
    await ensureTopics(kafka, [dlqTopic], 1);
    recorder = await TopicRecorder.start({ brokers, topic: dlqTopic, from: {} });
    deadLetters = new DeadLetterPublisher(kafka);

    database = await createTestDatabase(serverUrl, 'inbox_processor');
    main = inboxDataSource(database, 'inbox-test');
    await migrateDatabase(main, serverUrl, database);
    await main.initialize();
    await main.query('CREATE TABLE test_effects (message_id uuid NOT NULL, worker text NOT NULL)');
  });

  beforeEach(() => {
    inbox = consumerOn(main);
  });

  afterAll(async () => {
    await recorder?.stop();
    await deadLetters?.close();
    for (const dataSource of dataSources) if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
    if (database) await dropTestDatabase(serverUrl, database);
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [dlqTopic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('when the same message is processed twice in a row, then the handler runs once and the second is a counted duplicate', async () => {
    const raw = message();
    const messageId = raw.headers[Headers.messageId] as string;
    const redelivered = { ...raw, offset: String(Number(raw.offset) + 100) };
    expect(await inbox.processor.process(raw, (envelope) => inbox.effect(envelope, 'first'), handler)).toBe('processed');
    expect(await inbox.processor.process(redelivered, (envelope) => inbox.effect(envelope, 'again'), handler)).toBe('duplicate');

    expect(await effectsOf(main, messageId)).toEqual(['first']);
    expect((await inbox.metrics.duplicates.get()).values).toEqual([expect.objectContaining({ labels: { consumer }, value: 1 })]);
    const rows = await main.query('SELECT topic, partition, "offset", message_type FROM inbox_messages WHERE message_id = $1', [messageId]);
    expect(rows).toEqual([{ topic, partition: 0, offset: raw.offset, message_type: 'ThingHappened' }]);
  });

  describe('two consumers racing on one message id, each with its own pool and transaction', () => {
    let second: DataSource;

    beforeAll(async () => {
      second = inboxDataSource(database, 'inbox-test-racer-b');
      await second.initialize();
    });

    /** True once racer B's backend waits on a lock: its claim queued behind A's uncommitted row. */
    async function racerBBlocked(): Promise<boolean> {
      const [row] = await main.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'inbox-test-racer-b' AND wait_event_type = 'Lock'",
      );
      return row.n > 0;
    }

    /**
     * Runs A's handler up to the point where it holds the claim inside an open transaction, then
     * starts B and lets A wait until B is blocked behind it, or B finished: the latter is what a
     * racy claim (check, then insert) would allow, and the assertions then catch it.
     */
    async function race(raw: RawInboxMessage, afterBQueued: (attempt: number) => void) {
      const a = consumerOn(main);
      const b = consumerOn(second);
      let attemptsA = 0;
      let settledB = false;
      let sawBBlocked = false;
      let claimedByA!: () => void;
      const aHoldsClaim = new Promise<void>((resolve) => (claimedByA = resolve));

      const outcomeA = a.processor.process(
        raw,
        async (envelope) => {
          attemptsA += 1;
          await a.effect(envelope, 'a');
          if (attemptsA > 1) return;
          claimedByA();
          const state = await waitFor(async () => (settledB ? 'settled' : (await racerBBlocked()) ? 'blocked' : undefined), {
            timeoutMs: 15_000,
            intervalMs: 20,
            description: 'racer B to block on the inbox key, or to finish',
          });
          sawBBlocked = state === 'blocked';
          afterBQueued(attemptsA);
        },
        handler,
      );
      await aHoldsClaim;
      const outcomeB = b.processor
        .process(raw, (envelope) => b.effect(envelope, 'b'), handler)
        .finally(() => {
          settledB = true;
        });
      const outcomes = await Promise.all([outcomeA, outcomeB]);
      return { outcomes, sawBBlocked, attemptsA };
    }

    it('when both process it concurrently, then the second blocks on the key until the first commits, then skips it: one effect', async () => {
      const raw = message();
      const result = await race(raw, () => undefined);

      expect(await effectsOf(main, raw.headers[Headers.messageId] as string)).toEqual(['a']);
      expect(result.outcomes).toEqual(['processed', 'duplicate']);
      expect(result.sawBBlocked).toBe(true);
    });

    it('when the first transaction rolls back, then the blocked one claims the message, and its effect is the only one', async () => {
      const raw = message();
      const result = await race(raw, () => {
        throw new Error('A fails after B queued behind it');
      });

      expect(await effectsOf(main, raw.headers[Headers.messageId] as string)).toEqual(['b']);
      // B takes the claim once A rolls back; A's retry then finds B's committed row.
      expect(result.outcomes).toEqual(['duplicate', 'processed']);
      expect(result.attemptsA).toBe(1);
      expect(result.sawBBlocked).toBe(true);
    });
  });

  it(`when the handler always fails, then it runs ${MAX_ATTEMPTS} times, nothing commits, and the message is dead-lettered with the reason`, async () => {
    const raw = message();
    const messageId = raw.headers[Headers.messageId] as string;
    let calls = 0;
    const outcome = await inbox.processor.process(
      raw,
      async (envelope) => {
        calls += 1;
        await inbox.effect(envelope, 'doomed');
        throw new TypeError(`cannot handle ${envelope.messageId}`);
      },
      handler,
    );

    expect(outcome).toBe('dead-lettered');
    expect(calls).toBe(MAX_ATTEMPTS);
    expect(await effectsOf(main, messageId)).toEqual([]);
    expect(await main.query('SELECT 1 FROM inbox_messages WHERE message_id = $1', [messageId])).toEqual([]);
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

  it('when the handler fails once, then the rolled-back attempt leaves nothing and the retry commits exactly one effect', async () => {
    const raw = message();
    let calls = 0;
    const outcome = await inbox.processor.process(
      raw,
      async (envelope) => {
        calls += 1;
        await inbox.effect(envelope, `call-${calls}`);
        if (calls === 1) throw new Error('transient');
      },
      handler,
    );
    expect(outcome).toBe('processed');
    expect(await effectsOf(main, raw.headers[Headers.messageId] as string)).toEqual(['call-2']);
  });

  it.each([
    ['NOT_JSON', () => message({ value: 'this is { not json' })],
    ['MISSING_MESSAGE_ID', () => message({ headers: { [Headers.messageId]: undefined } })],
    ['UNKNOWN_TYPE', () => message({ type: 'ThingForgotten' })],
    ['UNSUPPORTED_SCHEMA_VERSION', () => message({ headers: { [Headers.schemaVersion]: '9' } })],
    ['SCHEMA_VIOLATION', () => message({ value: { thingId: 'not-a-uuid', note: 'hello' } })],
  ])('when a message is invalid (%s), then it is dead-lettered at once and the handler never runs', async (reason, make) => {
    const raw = make();
    let calls = 0;
    expect(await inbox.processor.process(raw, async () => void (calls += 1), handler)).toBe('dead-lettered');
    expect(calls).toBe(0);
    const letter = await dlqRecordOf(raw);
    expect(letter.headers).toMatchObject({ [DeadLetterHeaders.reason]: reason, [DeadLetterHeaders.attempts]: '0' });
    expect(letter.headers[DeadLetterHeaders.error]).toBeTruthy();
  });

  it('when a binary value is dead-lettered (Nest leaves values starting with a zero byte undecoded), then its bytes arrive unchanged', async () => {
    // Schema-registry framing: magic byte 0, a 4-byte schema id, then Avro/Protobuf bytes, not UTF-8.
    const bytes = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x2a, 0xff, 0xfe, 0x80, 0x01]);
    const raw = message({ value: bytes });
    expect(await inbox.processor.process(raw, async () => undefined, handler)).toBe('dead-lettered');
    expect((await dlqRecordOf(raw)).headers[DeadLetterHeaders.reason]).toBe('NOT_JSON');

    const consumerOfBytes = kafka.consumer({ groupId: uniqueName('test-dlq-bytes'), maxWaitTimeInMs: 100 });
    let found: Buffer | null | undefined;
    await consumerOfBytes.connect();
    try {
      await consumerOfBytes.subscribe({ topic: dlqTopic, fromBeginning: true });
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
    expect(await inbox.processor.process(first, (envelope) => inbox.effect(envelope, 'first'), handler)).toBe('processed');
    expect(await inbox.processor.process(impostor, (envelope) => inbox.effect(envelope, 'impostor'), handler)).toBe('dead-lettered');

    expect(await effectsOf(main, messageId)).toEqual(['first']);
    const letter = await dlqRecordOf(impostor);
    expect(letter.headers).toMatchObject({ [DeadLetterHeaders.reason]: 'PAYLOAD_MISMATCH', [DeadLetterHeaders.attempts]: '1' });
  });

  it('when the database is unreachable, then process rejects without running the handler or dead-lettering: the offset stays for redelivery', async () => {
    const doomed = await createTestDatabase(serverUrl, 'inbox_processor_gone');
    const dataSource = inboxDataSource(doomed, 'inbox-test-gone');
    await migrateDatabase(dataSource, serverUrl, doomed);
    await dataSource.initialize();
    // The database disappears under the pool: every new connection now fails.
    await dropDatabase(serverUrl, doomed);
    const gone = consumerOn(dataSource);
    let calls = 0;

    await expect(gone.processor.process(message(), async () => void (calls += 1), handler)).rejects.toThrow();
    expect(calls).toBe(0);
    expect((await gone.metrics.deadLettered.get()).values).toEqual([]);
  });
});
