import type { IHeaders, Kafka } from 'kafkajs';
import { DeadLetterHeaders, Headers } from '@app/envelope';
import { ACKS_ALL, createIdempotentProducer } from '@app/kafka';
import { headerText, readTopic, type StoredRecord } from './read-topic.js';

const DLQ_SUFFIX = '.dlq';

/** A record of a dead-letter topic with what the inbox wrote about it. */
export interface DeadLetter {
  record: StoredRecord;
  messageId: string | undefined;
  messageType: string | undefined;
  reason: string | undefined;
  error: string | undefined;
  attempts: string | undefined;
  consumer: string | undefined;
  deadLetteredAt: string | undefined;
  original: { topic: string | undefined; partition: number | undefined; offset: number | undefined };
}

/** `orders.order.v1` and `orders.order.v1.dlq` both name the dead-letter topic `orders.order.v1.dlq`. */
export function asDeadLetterTopic(topic: string): string {
  return topic.endsWith(DLQ_SUFFIX) ? topic : `${topic}${DLQ_SUFFIX}`;
}

/** The dead-letter topics on the cluster, or the one `topic` names. */
export async function deadLetterTopics(kafka: Kafka, topic?: string): Promise<string[]> {
  if (topic) return [asDeadLetterTopic(topic)];
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.listTopics()).filter((name) => name.endsWith(DLQ_SUFFIX)).sort();
  } finally {
    await admin.disconnect();
  }
}

function toDeadLetter(record: StoredRecord): DeadLetter {
  const text = (name: string) => headerText(record.headers, name);
  const number = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
  return {
    record,
    messageId: text(Headers.messageId),
    messageType: text(Headers.messageType),
    reason: text(DeadLetterHeaders.reason),
    error: text(DeadLetterHeaders.error),
    attempts: text(DeadLetterHeaders.attempts),
    consumer: text(DeadLetterHeaders.consumer),
    deadLetteredAt: text(DeadLetterHeaders.deadLetteredAt),
    original: {
      topic: text(DeadLetterHeaders.originalTopic),
      partition: number(DeadLetterHeaders.originalPartition),
      offset: number(DeadLetterHeaders.originalOffset),
    },
  };
}

/** Every dead letter of `topics`, oldest first per partition. */
export async function readDeadLetters(kafka: Kafka, topics: string[]): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = [];
  for (const topic of topics) letters.push(...(await readTopic(kafka, topic)).map(toDeadLetter));
  return letters;
}

/** `dlq show` argument: a message id, or `topic:partition:offset` of the dead letter or of the original record. */
export function matchesReference(letter: DeadLetter, reference: string): boolean {
  const position = /^(.+):(\d+):(\d+)$/.exec(reference);
  if (!position) return letter.messageId === reference;
  const [, topic, partition, offset] = position;
  const { record, original } = letter;
  return topic.endsWith(DLQ_SUFFIX)
    ? record.topic === topic && record.partition === Number(partition) && record.offset === Number(offset)
    : original.topic === topic && original.partition === Number(partition) && original.offset === Number(offset);
}

/**
 * The record as it was before it was dead-lettered: same key, value and headers (so the same
 * `message-id`, and the consumer's inbox still deduplicates it), without the `dlq-*` headers.
 */
function originalMessage(letter: DeadLetter): { key: Buffer | null; value: Buffer | null; headers: IHeaders } {
  const dlqHeaders = new Set<string>(Object.values(DeadLetterHeaders));
  const headers = Object.fromEntries(Object.entries(letter.record.headers).filter(([name]) => !dlqHeaders.has(name)));
  return { key: letter.record.key, value: letter.record.value, headers };
}

/**
 * Publishes each letter back to its original topic, one awaited send at a time with acks=all and the
 * idempotent producer, so the replayed records keep the dead-letter topic's order.
 */
export async function replay(kafka: Kafka, letters: DeadLetter[]): Promise<{ letter: DeadLetter; partition: number; offset: number }[]> {
  const producer = createIdempotentProducer(kafka);
  await producer.connect();
  try {
    const results = [];
    for (const letter of letters) {
      if (!letter.original.topic)
        throw new Error(`${position(letter)} has no ${DeadLetterHeaders.originalTopic} header: not written by the inbox`);
      const [metadata] = await producer.send({ topic: letter.original.topic, acks: ACKS_ALL, messages: [originalMessage(letter)] });
      results.push({ letter, partition: metadata.partition, offset: Number(metadata.baseOffset) });
    }
    return results;
  } finally {
    await producer.disconnect();
  }
}

/** `topic:partition:offset` of the dead letter itself. */
export function position(letter: DeadLetter): string {
  return `${letter.record.topic}:${letter.record.partition}:${letter.record.offset}`;
}
