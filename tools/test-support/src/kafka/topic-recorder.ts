import type { Consumer, IHeaders, Kafka } from 'kafkajs';
import { createKafka, ensureTopics } from '@libs/kafka';
import { fetchEndOffsets } from './end-offsets.js';
import { uniqueName } from '../unique-name.js';
import { waitFor } from '../wait-for.js';

/** One record as a test sees it: key, headers and value decoded to strings, the value also parsed. */
export interface RecordedMessage {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  headers: Record<string, string>;
  /** The raw value text. */
  text: string | null;
  /** The value parsed as JSON, `undefined` when it is not JSON. */
  value: unknown;
}

/** Partition → first offset to read (a snapshot of the end offsets taken before the test acts). */
export type TopicOffsets = Record<number, number>;

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    decoded[name] = value.toString();
  }
  return decoded;
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The current end offset of every partition of `topic`: the place a test starts reading from, so
 * it sees only what it caused, even on a topic other tests write to at the same time. A missing
 * topic is created first (with `partitions`, as the apps' own start-up would), so a test may take
 * its snapshot before any service has run on a fresh broker.
 */
export async function topicEndOffsets(brokers: string[], topic: string, partitions = 3): Promise<TopicOffsets> {
  const kafka = createKafka({ brokers, clientId: uniqueName('test-offsets') });
  await ensureTopics(kafka, [topic], partitions);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await fetchEndOffsets(admin, topic);
    return Object.fromEntries(offsets.map(({ partition, high }) => [partition, Number(high)]));
  } finally {
    await admin.disconnect();
  }
}

/** Where a {@link TopicRecorder} reads: one topic, from a snapshot of its offsets. */
export interface TopicRecorderOptions {
  brokers: string[];
  topic: string;
  /** Read from these offsets (see {@link topicEndOffsets}); partitions not listed are read from 0. */
  from: TopicOffsets;
}

/**
 * Reads a topic from given offsets into memory, in the background, with a throw-away consumer
 * group. Each record is kept once (by partition and offset) even if the consumer sees it twice,
 * so counting copies of a message id counts copies on the topic, not redeliveries to the reader.
 */
export class TopicRecorder {
  private readonly byPosition = new Map<string, RecordedMessage>();

  private constructor(
    private readonly options: TopicRecorderOptions,
    private readonly kafka: Kafka,
    private readonly consumer: Consumer,
    private readonly groupId: string,
  ) {}

  static async start(options: TopicRecorderOptions): Promise<TopicRecorder> {
    const kafka = createKafka({ brokers: options.brokers, clientId: uniqueName('test-reader') });
    const groupId = uniqueName('test-reader');
    const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 200 });
    const recorder = new TopicRecorder(options, kafka, consumer, groupId);
    await consumer.connect();
    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) recorder.record(batch.partition, message);
      },
    });
    // A fresh group starts at the earliest offset; jump to the snapshot instead. Records read
    // before the seek lands are filtered (below the snapshot) or deduplicated (at or above it).
    for (const [partition, offset] of Object.entries(options.from)) {
      try {
        consumer.seek({ topic: options.topic, partition: Number(partition), offset: String(offset) });
      } catch (error) {
        // The consumer crashed while starting (a cluster test has a broker down) and restarts
        // without a group to seek yet, then reads from the earliest offset. What it reads below the
        // snapshot is filtered (see record), so the seek only saves reading; anything else is a bug.
        if (!(error instanceof Error && error.message.includes('Consumer group was not initialized'))) throw error;
      }
    }
    return recorder;
  }

  private record(partition: number, message: { offset: string; key: Buffer | null; value: Buffer | null; headers?: IHeaders }) {
    const offset = Number(message.offset);
    if (offset < (this.options.from[partition] ?? 0)) return;
    const position = `${partition}:${offset}`;
    if (this.byPosition.has(position)) return;
    const text = message.value === null ? null : message.value.toString();
    this.byPosition.set(position, {
      topic: this.options.topic,
      partition,
      offset,
      key: message.key === null ? null : message.key.toString(),
      headers: decodeHeaders(message.headers),
      text,
      value: parseJson(text),
    });
  }

  /** Everything read so far, by partition, then offset: the order a consumer of one partition sees. */
  get messages(): RecordedMessage[] {
    return [...this.byPosition.values()].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  }

  /** Waits until `predicate(messages)` holds; the error says what was read when it never did. */
  async waitUntil(
    predicate: (messages: RecordedMessage[]) => boolean,
    options: { timeoutMs?: number; description?: string } = {},
  ): Promise<RecordedMessage[]> {
    const description = options.description ?? `a condition on ${this.options.topic}`;
    try {
      return await waitFor(
        () => {
          const messages = this.messages;
          return predicate(messages) ? messages : undefined;
        },
        { timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 100, description },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message} (read ${this.byPosition.size} record(s) from ${this.options.topic} so far)`);
    }
  }

  /**
   * Waits until at least `copies` (default 1) records keyed `key` were read, and returns every
   * record with that key read so far, in partition, then offset order. The services key each event
   * by its aggregate id, so with an order id these are that order's events on the topic.
   */
  async waitForKey(key: string, options: { copies?: number; timeoutMs?: number; description?: string } = {}): Promise<RecordedMessage[]> {
    const copies = options.copies ?? 1;
    const messages = await this.waitUntil((all) => all.filter((message) => message.key === key).length >= copies, {
      timeoutMs: options.timeoutMs,
      description: options.description ?? `${copies} record(s) keyed ${key} on ${this.options.topic}`,
    });
    return messages.filter((message) => message.key === key);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([this.groupId]);
    } catch {
      // Best effort: an empty group with no offsets expires on its own.
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}

/**
 * The records of `messages` whose key is one of `keys`, grouped by key, each group in the order of
 * `messages`; keys with no record are absent, so `size` tells how many of `keys` were seen.
 */
export function recordsByKey(messages: RecordedMessage[], keys: Iterable<string>): Map<string, RecordedMessage[]> {
  const wanted = new Set(keys);
  const byKey = new Map<string, RecordedMessage[]>();
  for (const message of messages) {
    if (message.key === null || !wanted.has(message.key)) continue;
    byKey.set(message.key, [...(byKey.get(message.key) ?? []), message]);
  }
  return byKey;
}

/** Reads `topic` from `from` until `predicate` holds, then stops the reader. */
export async function readTopicUntil(
  options: TopicRecorderOptions & { timeoutMs?: number; description?: string },
  predicate: (messages: RecordedMessage[]) => boolean,
): Promise<RecordedMessage[]> {
  const recorder = await TopicRecorder.start(options);
  try {
    return await recorder.waitUntil(predicate, options);
  } finally {
    await recorder.stop();
  }
}
