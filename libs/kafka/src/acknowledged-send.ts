import {
  type Message,
  Partitioners,
  type ICustomPartitioner,
  type Producer,
  type ProducerBatch,
  type RecordMetadata,
  type TopicMessages,
} from 'kafkajs';

/** The partition each message was last given, by message object (see {@link stickyPartitioner}). */
const partitions = new WeakMap<Message, number>();

/**
 * kafkajs' default partitioner (murmur2 of the key, as Java's), remembering what it chose for each
 * message object and choosing the same again on a retry. Keyed messages would land in the same
 * partition anyway; a keyless one would otherwise get another round-robin partition per attempt.
 * Either way {@link sendBatchAcknowledged} can then tell which partition each message went to.
 */
export const stickyPartitioner: ICustomPartitioner = () => {
  const choose = Partitioners.DefaultPartitioner();
  return (args) => {
    const chosen = partitions.get(args.message);
    if (chosen !== undefined && chosen < args.partitionMetadata.length) return chosen;
    const partition = choose(args);
    partitions.set(args.message, partition);
    return partition;
  };
};

/** "2 record(s) of orders.order.v1, 1 record(s) of ...": what is still unacknowledged, for a log line or an error. */
export function describeRecords(pending: TopicMessages[]): string {
  return pending.map(({ topic, messages }) => `${messages.length} record(s) of ${topic}`).join(', ');
}

/** Thrown when some partitions of a batch are still unacknowledged after {@link MAX_SENDS} sends. */
export class PartitionsNotAcknowledged extends Error {
  override readonly name = 'KafkaPartitionsNotAcknowledged';

  constructor(readonly pending: TopicMessages[]) {
    super(`no acknowledgement for ${describeRecords(pending)}`);
  }
}

/**
 * The messages of `batch` whose partition has no entry in `acknowledged`. A message that
 * {@link stickyPartitioner} never saw is a programming error (a producer built without it): a check
 * that cannot see would pass every batch.
 */
export function unacknowledged(batch: TopicMessages[], acknowledged: RecordMetadata[]): TopicMessages[] {
  const acked = new Set(acknowledged.map(({ topicName, partition }) => `${partition}@${topicName}`));
  return batch
    .map(({ topic, messages }) => ({
      topic,
      messages: messages.filter((message) => {
        const partition = partitions.get(message);
        if (partition === undefined) {
          throw new Error(
            `a record of ${topic} was not partitioned by stickyPartitioner: build the producer with createIdempotentProducer`,
          );
        }
        return !acked.has(`${partition}@${topic}`);
      }),
    }))
    .filter(({ messages }) => messages.length > 0);
}

/** Sends of one batch: the first, and resends of partitions kafkajs dropped. */
const MAX_SENDS = 3;

/**
 * `producer.sendBatch`, resolving only once every partition of the batch is acknowledged.
 *
 * kafkajs can resolve a `sendBatch` without ever sending some of its partitions (kafkajs#1303,
 * fix proposed in kafkajs#1798): it remembers, across its retries, which brokers answered; when a
 * leader moves to a broker that already answered for other partitions of the batch, the retry
 * skips that broker, and the moved partition's records are reported as sent. The outbox relay then
 * marked rows published that never reached the topic (an order lost during a rolling restart).
 *
 * The partitions missing from the acknowledgements are sent again, on the same producer: their
 * idempotent sequence numbers were rolled back when their request failed, so a resend carries the
 * same numbers for the same records, and a broker that had appended them after all acknowledges
 * the duplicate without writing it twice. After {@link MAX_SENDS} sends it throws
 * {@link PartitionsNotAcknowledged}; the caller then retires the producer, as after any failure.
 * `onResend` hears of every resend (an operator wants to see a leader move cost one).
 *
 * The producer must be built by `createIdempotentProducer` (its {@link stickyPartitioner}), and,
 * as for any idempotent send, callers await one send at a time.
 */
export async function sendBatchAcknowledged(
  producer: Producer,
  batch: ProducerBatch,
  onResend: (pending: TopicMessages[]) => void = () => undefined,
): Promise<RecordMetadata[]> {
  // With acks 0 Kafka answers nothing, so every send would look dropped.
  if (batch.acks === 0) throw new Error('sendBatchAcknowledged needs acknowledgements: acks must not be 0');
  const acknowledged: RecordMetadata[] = [];
  let pending = batch.topicMessages ?? [];
  for (let send = 1; ; send++) {
    acknowledged.push(...(await producer.sendBatch({ ...batch, topicMessages: pending })));
    pending = unacknowledged(pending, acknowledged);
    if (pending.length === 0) return acknowledged;
    if (send === MAX_SENDS) throw new PartitionsNotAcknowledged(pending);
    onResend(pending);
  }
}
