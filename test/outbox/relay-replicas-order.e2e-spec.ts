import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { cancelOrder, placeOrder, scrapeMetric, seedPrices, testInfrastructure, TestServices, waitForOutboxDrained } from '@test/fixtures';
import { migrateServiceDatabase, recordsByKey, type ServiceProcess, type TopicRecorder } from '@tools/local-stack';

const { serverUrl } = testInfrastructure();
const ORDERS = 2000;
const REPLICAS = 3;
/** Requests in flight at once: enough to interleave creates and cancels of many orders. */
const CONCURRENCY = 12;

/** Runs `work(0..count-1)` with at most `limit` in flight; fails fast on the first error. */
async function inParallel(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/**
 * Per-order ordering with several relays: three processes run the relay against one database while
 * orders are created and cancelled through all of them. On the topic, read per partition in offset
 * order, every order's OrderCreated must come before its OrderCancelled.
 */
describe(`${REPLICAS} relay replicas over ${ORDERS} orders created then cancelled (real orders processes)`, () => {
  const services = new TestServices();
  let database: string;
  const processes: ServiceProcess[] = [];
  let recorder: TopicRecorder;

  beforeAll(async () => {
    database = await services.createDatabase('outbox_replicas');
    // Migrated once up front, so three processes starting at once do not race on the schema.
    await migrateServiceDatabase('orders', serverUrl, database);
    await seedPrices(serverUrl, database, { 'SKU-REPLICA': 100 });
    await Promise.all(
      Array.from({ length: REPLICAS }, async (_, index) => {
        processes.push(
          await services.start({
            service: 'orders',
            name: `orders-replica-${index + 1}`,
            database,
            // Small batches: many hand-overs of the relay lock between the replicas.
            env: { OUTBOX_BATCH_SIZE: '50' },
          }),
        );
      }),
    );
    recorder = await services.recordTopic(Topics.orders);
  });

  afterAll(() => services.tearDown());

  it('when every order is created and then cancelled, then on its partition OrderCreated always precedes OrderCancelled', async () => {
    const ids: string[] = [];
    await inParallel(ORDERS, CONCURRENCY, async (index) => {
      const writer = processes[index % REPLICAS];
      const canceller = processes[(index + 1) % REPLICAS];
      const created = await placeOrder(writer.baseUrl, {
        customerId: `replica-${index}`,
        items: [{ sku: 'SKU-REPLICA', quantity: 1 }],
      });
      const cancelled = await cancelOrder(canceller.baseUrl, created.id, `replica-${index}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('CANCELLED');
      ids.push(created.id);
    });

    await waitForOutboxDrained(serverUrl, database, { timeoutMs: 90_000, intervalMs: 250, description: 'no pending outbox rows' });
    const messages = await recorder.waitUntil(
      (all) => {
        const byOrder = recordsByKey(all, ids);
        return (
          byOrder.size === ids.length &&
          [...byOrder.values()].every((own) => new Set(own.map((message) => message.headers[Headers.messageType])).size === 2)
        );
      },
      { timeoutMs: 60_000, description: `OrderCreated and OrderCancelled of all ${ORDERS} orders` },
    );

    const violations: string[] = [];
    for (const [orderId, own] of recordsByKey(messages, ids)) {
      // `messages` is sorted by partition, then offset: the order a consumer of that partition sees.
      const partitions = new Set(own.map((message) => message.partition));
      if (partitions.size !== 1) violations.push(`${orderId}: spread over partitions ${[...partitions].join(', ')}`);
      const sequence = own.map((message) => message.headers[Headers.messageType]);
      if (sequence.indexOf('OrderCancelled') < sequence.indexOf('OrderCreated')) {
        violations.push(`${orderId}: ${sequence.join(' -> ')} at offsets ${own.map((message) => message.offset).join(', ')}`);
      }
    }
    expect(violations).toEqual([]);

    const perReplica = await Promise.all(processes.map((replica) => scrapeMetric(replica.baseUrl, 'outbox_published_total')));
    expect(perReplica.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(2 * ORDERS);
    // Leadership really moved between processes, or the test would prove nothing about replicas.
    expect(perReplica.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });
});
