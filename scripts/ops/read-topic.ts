import { randomUUID } from 'node:crypto';
import type { IHeaders, Kafka } from 'kafkajs';

/** One record as read from Kafka, bytes untouched (a replay must publish exactly what was read). */
export interface StoredRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

const READ_TIMEOUT_MS = 60_000;

/** Which records {@link readTopic} reads. */
export interface ReadOptions {
  /** Only the last this many records of each partition; default every retained record. */
  lastPerPartition?: number;
}

/**
 * The records of `topic` from the earliest retained offset (or the last `lastPerPartition` of each
 * partition) up to the end offsets seen when the read starts, in partition then offset order. Uses a
 * throw-away consumer group of its own, deleted afterwards, that commits nothing but where a tail
 * starts: an operator's look must never move a service's position.
 */
export async function readTopic(kafka: Kafka, topic: string, options: ReadOptions = {}): Promise<StoredRecord[]> {
  const admin = kafka.admin();
  await admin.connect();
  const groupId = `ops-read-${randomUUID()}`;
  try {
    const offsets = (await admin.fetchTopicOffsets(topic)).map((p) => {
      const high = Number(p.high);
      const low = Number(p.low);
      const first = options.lastPerPartition === undefined ? low : Math.max(low, high - options.lastPerPartition);
      return { partition: p.partition, first, high };
    });
    // Last offset to read per partition; empty partitions need no reading at all.
    const remaining = new Map(offsets.filter((p) => p.high > p.first).map((p) => [p.partition, p.high - 1]));
    if (remaining.size === 0) return [];
    // The new group starts where these say: the tail of each partition, not its beginning.
    if (options.lastPerPartition !== undefined)
      await admin.setOffsets({ groupId, topic, partitions: offsets.map(({ partition, first }) => ({ partition, offset: String(first) })) });
    const records: StoredRecord[] = [];
    const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`reading ${topic} took longer than ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
        consumer
          .run({
            autoCommit: false,
            eachMessage: async ({ partition, message }) => {
              const last = remaining.get(partition);
              const offset = Number(message.offset);
              if (last === undefined || offset > last) return;
              records.push({
                topic,
                partition,
                offset,
                timestamp: message.timestamp,
                key: message.key,
                value: message.value,
                headers: message.headers ?? {},
              });
              if (offset === last) remaining.delete(partition);
              if (remaining.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    return records.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  } finally {
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}

/** A header value as text (kafkajs hands them over as Buffers). */
export function headerText(headers: IHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}
