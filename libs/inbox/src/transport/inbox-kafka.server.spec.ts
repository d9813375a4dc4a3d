import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { Consumer, ConsumerRunConfig, EachBatchPayload } from 'kafkajs';
import type { InboxBatch } from '../core/inbox.batch.js';
import { FetchLinger } from '../layers/fetch-linger.layer.js';
import type { LayeredInbox } from '../layers/inbox.layers.js';
import type { InboxRoutes } from '../routing/inbox-routes.registry.js';
import { InboxKafkaServer } from './inbox-kafka.server.js';

/**
 * The linger of the Kafka adapter, on a fake clock. No broker and no database: the kafkajs consumer
 * is a stand-in that hands over its run options, and the inbox a stand-in that records when it was
 * called and takes as long as the test says (the inbox itself is proven against real Kafka and
 * Postgres in inbox.contract.int-spec.ts).
 */
describe('InboxKafkaServer with the fetch-linger layer', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  /** `lingerMs` undefined: the layer switched off. */
  async function serverWith(lingerMs: number | undefined, handleMs: number) {
    const handledAt: number[] = [];
    // The handling "takes" handleMs of fake time: the clock the test advances, not a real wait.
    const inbox = {
      deliver: async (batch: InboxBatch) => {
        handledAt.push(performance.now());
        await jest.advanceTimersByTimeAsync(handleMs);
        for (const record of batch.records) batch.resolve(record);
      },
    } as unknown as LayeredInbox;
    const routes = { topics: () => ['orders.order.v1'], routeOf: () => ({}) } as unknown as InboxRoutes;
    const linger = lingerMs === undefined ? undefined : new FetchLinger(lingerMs);
    const server = new InboxKafkaServer({ client: { brokers: ['127.0.0.1:9'] } }, inbox, routes, { linger });
    let runConfig: ConsumerRunConfig | undefined;
    const consumer = {
      subscribe: async () => undefined,
      run: async (config: ConsumerRunConfig) => void (runConfig = config),
      on: () => () => undefined,
      events: { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' },
    } as unknown as Consumer;
    await server.bindEvents(consumer);
    const resolved: string[] = [];
    const payload = {
      batch: { topic: 'orders.order.v1', partition: 0, messages: [{ offset: '7', key: null, value: null, headers: {}, timestamp: '0' }] },
      resolveOffset: (offset: string) => void resolved.push(offset),
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
      pause: () => () => undefined,
      uncommittedOffsets: () => ({ topics: [] }),
      commitOffsetsIfNecessary: async () => undefined,
    } as unknown as EachBatchPayload;
    /** Hands one batch to the server; resolves with the fake time at which kafkajs gets control back. */
    const deliver = async () => {
      const returned = runConfig!.eachBatch!(payload);
      // Lets the fake clock run what the call scheduled before it is awaited.
      await jest.advanceTimersByTimeAsync(0);
      await returned;
      return performance.now();
    };
    return { deliver, handledAt, resolved };
  }

  it('when a batch is handled sooner than the linger, then its records are handled at once and kafkajs gets control back (fetches again) only once the linger passed', async () => {
    jest.useFakeTimers({ now: 0 });
    const { deliver, handledAt, resolved } = await serverWith(10, 2);
    let returnedAt: number | undefined;
    void deliver().then((at) => (returnedAt = at));
    await jest.advanceTimersByTimeAsync(0);
    expect(handledAt).toEqual([0]);
    await jest.advanceTimersByTimeAsync(5);
    expect(resolved).toEqual(['7']);
    expect(returnedAt).toBeUndefined();
    await jest.advanceTimersByTimeAsync(5);
    expect(returnedAt).toBe(10);
  });

  it.each([
    { when: 'a batch takes longer than the linger', lingerMs: 10, handleMs: 30 },
    { when: 'the linger is 0', lingerMs: 0, handleMs: 2 },
    { when: 'the layer is switched off', lingerMs: undefined, handleMs: 2 },
  ])('when $when, then kafkajs gets control back as soon as the batch is handled', async ({ lingerMs, handleMs }) => {
    jest.useFakeTimers({ now: 0 });
    const { deliver } = await serverWith(lingerMs, handleMs);
    await expect(deliver()).resolves.toBe(handleMs);
  });
});
