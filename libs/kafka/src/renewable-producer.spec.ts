import { describe, expect, it } from '@jest/globals';
import type { Kafka, ProducerConfig } from 'kafkajs';
import { RenewableProducer } from './renewable-producer.js';

/** A producer stand-in that counts its connects and disconnects; `connect` waits for `connected` when given. */
class FakeProducer {
  readonly events = { DISCONNECT: 'producer.disconnect' };
  connects = 0;
  disconnects = 0;

  constructor(
    readonly config: ProducerConfig,
    private readonly connected?: Promise<void>,
  ) {}

  on(): void {}

  async connect(): Promise<void> {
    this.connects += 1;
    await this.connected;
  }

  async disconnect(): Promise<void> {
    this.disconnects += 1;
  }
}

function fakeKafka(connected?: Promise<void>) {
  const producers: FakeProducer[] = [];
  const kafka = {
    producer: (config: ProducerConfig) => {
      const producer = new FakeProducer(config, connected);
      producers.push(producer);
      return producer;
    },
  } as unknown as Kafka;
  return { kafka, producers };
}

describe('RenewableProducer', () => {
  it('when used twice, then one idempotent producer is built and connected once', async () => {
    const { kafka, producers } = fakeKafka();
    const renewable = new RenewableProducer(kafka, { retry: { retries: 4 } });

    const first = await renewable.connected();
    const second = await renewable.connected();

    expect(second).toBe(first);
    expect(producers).toHaveLength(1);
    expect(producers[0].connects).toBe(1);
    expect(producers[0].config).toMatchObject({ idempotent: true, maxInFlightRequests: 1, retry: { retries: 4 } });
  });

  it('when retired after a failed send, then the old producer is disconnected and the next use gets a new one (a new producer id)', async () => {
    const { kafka, producers } = fakeKafka();
    const renewable = new RenewableProducer(kafka);
    const first = await renewable.connected();

    renewable.retire();
    const next = await renewable.connected();

    expect(next).not.toBe(first);
    expect(producers).toHaveLength(2);
    expect(producers[0].disconnects).toBe(1);
    expect(producers[1].disconnects).toBe(0);
  });

  it('when closed while a connect is in progress, then it waits for the connect to end before disconnecting', async () => {
    let finishConnect!: () => void;
    const { kafka, producers } = fakeKafka(new Promise((resolve) => (finishConnect = resolve)));
    const renewable = new RenewableProducer(kafka);
    void renewable.connected();

    let closed = false;
    const closing = renewable.close().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    expect(producers[0].disconnects).toBe(0);

    finishConnect();
    await closing;
    expect(producers[0].disconnects).toBe(1);
  });
});
