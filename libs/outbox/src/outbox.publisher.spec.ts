import { describe, expect, it } from '@jest/globals';
import type { Kafka, ProducerBatch } from 'kafkajs';
import type { OutboxMessage } from './outbox-message.entity.js';
import { OutboxPublisher } from './outbox.publisher.js';

/** A kafkajs producer stand-in: records what it was asked to send and fails when told to. */
class FakeProducer {
  readonly events = { DISCONNECT: 'producer.disconnect' };
  readonly sent: ProducerBatch[] = [];
  disconnected = false;

  constructor(private readonly failWith: (batch: ProducerBatch) => Error | undefined) {}

  on(): void {}

  async connect(): Promise<void> {}

  async disconnect(): Promise<void> {
    this.disconnected = true;
  }

  async sendBatch(batch: ProducerBatch): Promise<unknown[]> {
    const error = this.failWith(batch);
    if (error) throw error;
    this.sent.push(batch);
    return [];
  }
}

function fakeKafka(failWith: (batch: ProducerBatch, producerIndex: number) => Error | undefined) {
  const producers: FakeProducer[] = [];
  const kafka = {
    producer: () => {
      const index = producers.length;
      const producer = new FakeProducer((batch) => failWith(batch, index));
      producers.push(producer);
      return producer;
    },
  } as unknown as Kafka;
  return { kafka, producers };
}

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
const keysOf = (batch: ProducerBatch) => batch.topicMessages!.flatMap((topic) => topic.messages.map((message) => message.headers!['message-id']));

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
});
