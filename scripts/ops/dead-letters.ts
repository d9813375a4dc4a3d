import type { IHeaders, Kafka } from 'kafkajs';
import { checkEnvelope, DeadLetterHeaders, DeadLetterStubHeaders, Headers, type MessageVerification } from '@libs/envelope';
import { ACKS_ALL, createIdempotentProducer } from '@libs/kafka';
import { messageCatalog } from '@tools/local-stack';
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
  /** True for a stub: too large for the dead-letter topic, only its coordinates were kept. */
  stub: boolean;
  original: { topic: string | undefined; partition: number | undefined; offset: number | undefined };
}

/** `orders.order.v1` and `orders.order.v1.dlq` both name the dead-letter topic `orders.order.v1.dlq`. */
export function asDeadLetterTopic(topic: string): string {
  return topic.endsWith(DLQ_SUFFIX) ? topic : `${topic}${DLQ_SUFFIX}`;
}

/**
 * Where a dead letter of `dlqTopic` is replayed: the topic its own name gives (`x.dlq` -> `x`),
 * never its `dlq-original-topic` header. Anyone who can write to a dead-letter topic writes that
 * header too; trusting it would let them make the operator publish into any topic.
 */
export function replayDestination(dlqTopic: string): string {
  if (!dlqTopic.endsWith(DLQ_SUFFIX) || dlqTopic.length === DLQ_SUFFIX.length) throw new Error(`${dlqTopic} is not a dead-letter topic`);
  return dlqTopic.slice(0, -DLQ_SUFFIX.length);
}

/** Which dead letters an ops command looks at; every field narrows, none means all. */
export interface LetterFilter {
  reason?: string;
  type?: string;
  partition?: number;
  /** Dead-letter topic offsets, inclusive. */
  fromOffset?: number;
  toOffset?: number;
}

export function matchesFilter(letter: DeadLetter, filter: LetterFilter): boolean {
  const { record } = letter;
  return (
    (filter.reason === undefined || letter.reason === filter.reason) &&
    (filter.type === undefined || letter.messageType === filter.type) &&
    (filter.partition === undefined || record.partition === filter.partition) &&
    (filter.fromOffset === undefined || record.offset >= filter.fromOffset) &&
    (filter.toOffset === undefined || record.offset <= filter.toOffset)
  );
}

/**
 * Why `letter` must not be replayed to `destination`, or undefined: the record, as it would be
 * sent, must pass the same envelope check its consumers apply (message id, a type declared for
 * that topic, schema version, payload, aggregate identity, and, when `signing` keys are
 * configured, a signature by the declared producer of its type). Replaying what they would refuse only dead-letters it again, or worse, sends a
 * forged record in with the operator's hands.
 */
export function replayProblem(letter: DeadLetter, destination: string, signing?: MessageVerification): string | undefined {
  if (letter.stub) return 'a stub (the record was too large for the dead-letter topic): read the original from the source topic';
  const declarations = Object.values(messageCatalog[destination] ?? {});
  if (declarations.length === 0) return `no message is declared for ${destination}`;
  const { key, value, headers } = originalMessage(letter);
  const check = checkEnvelope(
    { value, headers, key: key?.toString() ?? null, topic: destination },
    declarations,
    `${destination} consumers`,
    signing,
  );
  return check.valid ? undefined : `${check.reason}: ${check.error}`;
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
    stub: text(DeadLetterStubHeaders.stub) === 'true',
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
 * Publishes each letter back to the topic its dead-letter topic's name gives
 * ({@link replayDestination}), one awaited send at a time with acks -1 and an idempotent producer,
 * so the replayed records keep the dead-letter topic's order. Check each with {@link replayProblem} first.
 */
export async function replay(kafka: Kafka, letters: DeadLetter[]): Promise<{ letter: DeadLetter; partition: number; offset: number }[]> {
  const producer = createIdempotentProducer(kafka);
  await producer.connect();
  try {
    const results = [];
    for (const letter of letters) {
      const [metadata] = await producer.send({
        topic: replayDestination(letter.record.topic),
        acks: ACKS_ALL,
        messages: [originalMessage(letter)],
      });
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
