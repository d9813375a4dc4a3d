import { describe, expect, it } from '@jest/globals';
import { type Kafka, Partitioners, type PartitionMetadata, type ProducerBatch, type ProducerConfig, type RecordMetadata } from 'kafkajs';
import { loadConfig } from '@libs/config';
import {
  messageVerification,
  messageVerificationEnv,
  newSigningKeyPair,
  signatureProblem,
  signingKeyEnv,
  verifyKeyEntry,
} from '@libs/envelope';
import type { OutboxMessage } from '../storage/outbox-message.entity.js';
import { outboxEnv } from '../outbox.config.js';
import { OutboxPublisher } from './outbox.publisher.js';
import { isPartitionUnavailable } from './partition-unavailable.error.js';

/** The topic's partitions as the fakes see them: three, all led by broker 1. */
const THREE_PARTITIONS = [0, 1, 2].map((partitionId) => ({ partitionId, leader: 1 })) as unknown as PartitionMetadata[];

/**
 * A kafkajs producer stand-in: records what it was asked to send and fails when told to. Like
 * kafkajs, it places each message with the partitioner it was built with (three partitions) and
 * acknowledges every partition it was sent.
 */
class FakeProducer {
  readonly events = { DISCONNECT: 'producer.disconnect' };
  readonly sent: ProducerBatch[] = [];
  disconnected = false;
  private readonly partition: ReturnType<NonNullable<ProducerConfig['createPartitioner']>>;

  constructor(
    private readonly failWith: (batch: ProducerBatch) => Error | undefined,
    config: ProducerConfig,
    /** The partition this send reports sent without acknowledging it, as kafkajs#1303 does. */
    private readonly leaveOut: (send: number) => number | undefined = () => undefined,
  ) {
    this.partition = (config.createPartitioner ?? Partitioners.DefaultPartitioner)();
  }

  on(): void {}

  async connect(): Promise<void> {}

  async disconnect(): Promise<void> {
    this.disconnected = true;
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    const error = this.failWith(batch);
    if (error) throw error;
    this.sent.push(batch);
    const left = this.leaveOut(this.sent.length);
    const acks = new Map<string, RecordMetadata>();
    for (const { topic, messages } of batch.topicMessages ?? []) {
      for (const message of messages) {
        const partition = this.partition({ topic, partitionMetadata: THREE_PARTITIONS, message });
        if (partition !== left) acks.set(`${partition}@${topic}`, { topicName: topic, partition, errorCode: 0 });
      }
    }
    return [...acks.values()];
  }
}

function fakeKafka(
  failWith: (batch: ProducerBatch, producerIndex: number) => Error | undefined,
  partitionLeaders?: number[],
  leaveOut?: (send: number) => number | undefined,
) {
  const producers: FakeProducer[] = [];
  const kafka = {
    // Only when the test gives partition leaders: without admin the publisher cannot read metadata.
    ...(partitionLeaders && {
      admin: () => ({
        connect: async () => undefined,
        disconnect: async () => undefined,
        fetchTopicMetadata: async ({ topics }: { topics: string[] }) => ({
          topics: topics.map((name) => ({ name, partitions: partitionLeaders.map((leader, partitionId) => ({ partitionId, leader })) })),
        }),
      }),
    }),
    producer: (config: ProducerConfig) => {
      const index = producers.length;
      const producer = new FakeProducer((batch) => failWith(batch, index), config, leaveOut);
      producers.push(producer);
      return producer;
    },
  } as unknown as Kafka;
  return { kafka, producers };
}

const partitionOf = (() => {
  const partitioner = Partitioners.DefaultPartitioner();
  return (key: string) => partitioner({ topic: 'orders.order.v1', partitionMetadata: THREE_PARTITIONS, message: { key, value: null } });
})();

function row(id: string, aggregateId: string): OutboxMessage {
  return {
    id,
    seq: id,
    aggregateType: 'order',
    aggregateId,
    messageType: 'OrderCreated',
    topic: 'orders.order.v1',
    key: aggregateId,
    payload: { id },
    headers: { 'message-id': id },
    createdAt: new Date(0),
    publishedAt: null,
    attempts: 0,
    lastError: null,
    nextAttemptAt: new Date(0),
  };
}

const timeout = () => Object.assign(new Error('Request timed out'), { name: 'KafkaJSRequestTimeoutError' });
const tooLarge = () => Object.assign(new Error('Message too large'), { name: 'KafkaJSProtocolError', type: 'MESSAGE_TOO_LARGE' });
const keysOf = (batch: ProducerBatch) =>
  batch.topicMessages!.flatMap((topic) => topic.messages.map((message) => message.headers!['message-id']));

describe('OutboxPublisher', () => {
  it('when a send succeeds, then the same producer serves the next one with key, value and headers from the row', async () => {
    const { kafka, producers } = fakeKafka(() => undefined);
    const publisher = new OutboxPublisher(kafka);
    const first = await publisher.publish([row('m1', 'o1')]);
    await publisher.publish([row('m2', 'o2')]);
    expect(first).toEqual({ published: [row('m1', 'o1')], failed: [] });
    expect(producers).toHaveLength(1);
    expect(producers[0].sent[0]).toEqual({
      acks: -1,
      topicMessages: [{ topic: 'orders.order.v1', messages: [{ key: 'o1', value: '{"id":"m1"}', headers: { 'message-id': 'm1' } }] }],
    });
  });

  it("when a signing key is configured, then each record carries a signature that the producer's public key verifies", async () => {
    const pair = newSigningKeyPair('orders-2');
    const config = { ...loadConfig(outboxEnv, {}), MESSAGE_SIGNING_KEY: signingKeyEnv(pair) };
    const { kafka, producers } = fakeKafka(() => undefined);
    await new OutboxPublisher(kafka, config).publish([row('m1', 'o1')]);
    const [sent] = producers[0].sent[0].topicMessages![0].messages;
    const headers = sent.headers as Record<string, string>;
    expect(headers['message-signature-key-id']).toBe('orders-2');
    const verifying = messageVerification({
      ...loadConfig(messageVerificationEnv, {}),
      MESSAGE_VERIFY_KEYS: verifyKeyEntry('orders', pair),
    });
    const parts = { topic: 'orders.order.v1', key: 'o1', headers, payload: JSON.parse(String(sent.value)) };
    expect(signatureProblem(parts, verifying.keys, 'orders')).toBeUndefined();
    expect(signatureProblem({ ...parts, payload: { id: 'm2' } }, verifying.keys, 'orders')).toBe('signature does not match the envelope');
    // Without a key, nothing is signed.
    const unsigned = fakeKafka(() => undefined);
    await new OutboxPublisher(unsigned.kafka, { ...config, MESSAGE_SIGNING_KEY: '' }).publish([row('m1', 'o1')]);
    expect(unsigned.producers[0].sent[0].topicMessages![0].messages[0].headers).toEqual({ 'message-id': 'm1' });
  });

  // kafkajs rolls idempotent sequence numbers back after a failed request even when the broker
  // appended it; reusing them for other rows lets the broker ack those rows as duplicates unwritten.
  it('when a send fails, then that producer is disconnected and the next send uses a new one (new producer id)', async () => {
    const { kafka, producers } = fakeKafka((_, producerIndex) => (producerIndex === 0 ? timeout() : undefined));
    const publisher = new OutboxPublisher(kafka);
    const failed = await publisher.publish([row('m1', 'o1'), row('m2', 'o2')]);
    expect(failed.published).toEqual([]);
    expect(failed.failed.map(({ row: { id } }) => id)).toEqual(['m1', 'm2']);
    expect(producers[0].disconnected).toBe(true);

    const retried = await publisher.publish([row('m1', 'o1'), row('m2', 'o2')]);
    expect(retried.published.map(({ id }) => id)).toEqual(['m1', 'm2']);
    expect(producers).toHaveLength(2);
    expect(producers[1].sent.flatMap(keysOf)).toEqual(['m1', 'm2']);
  });

  // kafkajs#1303: a retry after a leader moved can skip a partition and still resolve.
  it('when a send resolves without acknowledging one partition, then that partition is sent again on the same producer and every row is published', async () => {
    const aggregates = Array.from({ length: 12 }, (_, n) => `order-${n}`);
    const { kafka, producers } = fakeKafka(
      () => undefined,
      undefined,
      (send) => (send === 1 ? 1 : undefined),
    );
    const rows = aggregates.map((aggregateId) => row(`m-${aggregateId}`, aggregateId));
    const outcome = await new OutboxPublisher(kafka).publish(rows);
    expect(outcome).toEqual({ published: rows, failed: [] });
    expect(producers).toHaveLength(1);
    const left = aggregates.filter((id) => partitionOf(id) === 1).map((id) => `m-${id}`);
    expect(left.length).toBeGreaterThan(0);
    expect(producers[0].sent.map(keysOf)).toEqual([rows.map(({ id }) => id), left]);
  });

  it('when a partition is never acknowledged, then only its rows fail, as a partition that is unavailable, and the producer is retired', async () => {
    const aggregates = Array.from({ length: 12 }, (_, n) => `order-${n}`);
    const { kafka, producers } = fakeKafka(
      () => undefined,
      [1, 1, 1],
      () => 1,
    );
    const rows = aggregates.map((aggregateId) => row(`m-${aggregateId}`, aggregateId));
    const outcome = await new OutboxPublisher(kafka).publish(rows);
    const bad = aggregates.filter((id) => partitionOf(id) === 1);
    expect(outcome.failed.map(({ row: { aggregateId } }) => aggregateId).sort()).toEqual(bad.sort());
    expect(outcome.failed.every(({ error }) => isPartitionUnavailable(error))).toBe(true);
    expect(outcome.published.map(({ aggregateId }) => aggregateId).sort()).toEqual(aggregates.filter((id) => !bad.includes(id)).sort());
    expect(producers[0].disconnected).toBe(true);
  });

  it('when the broker is unreachable, then the whole batch fails at once without row-by-row retries', async () => {
    let sends = 0;
    const { kafka } = fakeKafka(() => {
      sends += 1;
      return Object.assign(new Error('Connection error'), { name: 'KafkaJSConnectionError' });
    });
    const outcome = await new OutboxPublisher(kafka).publish([row('m1', 'o1'), row('m2', 'o2'), row('m3', 'o3')]);
    expect(outcome.failed).toHaveLength(3);
    expect(sends).toBe(1);
  });

  it('when one row is bad, then rows are sent one by one: its aggregate stops there, other aggregates go on', async () => {
    const { kafka, producers } = fakeKafka((batch) => (keysOf(batch).includes('a1') ? tooLarge() : undefined));
    const rows = [row('b1', 'B'), row('a1', 'A'), row('c1', 'C'), row('a2', 'A'), row('b2', 'B')];
    const outcome = await new OutboxPublisher(kafka).publish(rows);
    expect(outcome.published.map(({ id }) => id)).toEqual(['b1', 'c1', 'b2']);
    expect(outcome.failed.map(({ row: { id } }) => id)).toEqual(['a1']);
    // a2 was never attempted: publishing it would put it ahead of a1 on the topic.
    expect(producers.flatMap((producer) => producer.sent.flatMap(keysOf))).not.toContain('a2');
  });

  it('when a batch fails for one partition only, then the other partitions are sent and only that partition fails, without row-by-row retries', async () => {
    const aggregates = Array.from({ length: 12 }, (_, n) => `order-${n}`);
    const leaderGone = () => Object.assign(new Error('no leader'), { name: 'KafkaJSProtocolError', type: 'LEADER_NOT_AVAILABLE' });
    const { kafka, producers } = fakeKafka(
      (batch) =>
        batch.topicMessages!.some(({ messages }) => messages.some((message) => partitionOf(String(message.key)) === 1))
          ? leaderGone()
          : undefined,
      [1, 1, 1],
    );
    const rows = aggregates.map((aggregateId) => row(`m-${aggregateId}`, aggregateId));
    const outcome = await new OutboxPublisher(kafka).publish(rows);
    const bad = aggregates.filter((id) => partitionOf(id) === 1);
    expect(bad.length).toBeGreaterThan(0);
    expect(outcome.failed.map(({ row: { aggregateId } }) => aggregateId).sort()).toEqual(bad.sort());
    expect(outcome.published.map(({ aggregateId }) => aggregateId).sort()).toEqual(aggregates.filter((id) => !bad.includes(id)).sort());
    // Three sends failed at most: the whole batch, then partition 1 once; never once per row.
    expect(producers.length).toBeLessThanOrEqual(3);
  });

  it('when the metadata shows a partition without leader, then its rows fail without a send', async () => {
    const aggregates = Array.from({ length: 12 }, (_, n) => `order-${n}`);
    let sendsToBad = 0;
    const { kafka } = fakeKafka(
      (batch) => {
        if (!batch.topicMessages!.some(({ messages }) => messages.some((message) => partitionOf(String(message.key)) === 2)))
          return undefined;
        sendsToBad += 1;
        return Object.assign(new Error('Invalid partition metadata'), { name: 'KafkaJSError' });
      },
      [1, 1, -1],
    );
    const outcome = await new OutboxPublisher(kafka).publish(aggregates.map((aggregateId) => row(`m-${aggregateId}`, aggregateId)));
    expect(outcome.failed.map(({ row: { aggregateId } }) => aggregateId).sort()).toEqual(
      aggregates.filter((id) => partitionOf(id) === 2).sort(),
    );
    expect(outcome.failed[0].error.message).toMatch(/no leader/);
    expect(sendsToBad).toBe(1);
  });
});
