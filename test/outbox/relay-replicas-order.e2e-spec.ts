import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Headers, Topics } from '@app/contracts';
import {
  createTestDatabase,
  dropTestDatabase,
  localEnvironment,
  migrateServiceDatabase,
  queryTestDatabase,
  type RecordedMessage,
  requestJson,
  ServiceProcess,
  TopicRecorder,
  topicEndOffsets,
  waitFor,
} from '@app/testing';

const env = localEnvironment();
const serverUrl = env.DATABASE_URL!;
const brokers = env.KAFKA_BROKERS!.split(',');
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

/** Sum of `outbox_published_total` a process reports on `GET /metrics`. */
async function publishedBy(process: ServiceProcess): Promise<number> {
  const response = await fetch(`${process.baseUrl}/metrics`);
  const line = (await response.text()).split('\n').find((text) => text.startsWith('outbox_published_total'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/**
 * Per-order ordering with several relays: three processes run the relay against one database while
 * orders are created and cancelled through all of them. On the topic, read per partition in offset
 * order, every order's OrderCreated must come before its OrderCancelled.
 */
describe(`${REPLICAS} relay replicas over ${ORDERS} orders created then cancelled (real orders processes)`, () => {
  let database: string;
  const processes: ServiceProcess[] = [];
  let recorder: TopicRecorder | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_replicas');
    // Migrated once up front, so three processes starting at once do not race on the schema.
    await migrateServiceDatabase('orders', serverUrl, database);
    // Each one is remembered as soon as it is up, so afterAll stops it even if a sibling fails to start.
    await Promise.all(
      Array.from({ length: REPLICAS }, async (_, index) => {
        processes.push(
          await ServiceProcess.start({
            service: 'orders',
            name: `orders-replica-${index + 1}`,
            serverUrl,
            database,
            brokers,
            // Small batches: many hand-overs of the relay lock between the replicas.
            env: { OUTBOX_BATCH_SIZE: '50' },
          }),
        );
      }),
    );
    recorder = await TopicRecorder.start({ brokers, topic: Topics.orders, from: await topicEndOffsets(brokers, Topics.orders) });
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await recorder?.stop();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when every order is created and then cancelled, then on its partition OrderCreated always precedes OrderCancelled', async () => {
    const ids: string[] = [];
    await inParallel(ORDERS, CONCURRENCY, async (index) => {
      const writer = processes[index % REPLICAS];
      const canceller = processes[(index + 1) % REPLICAS];
      const created = await requestJson('POST', `${writer.baseUrl}/orders`, {
        body: { customerId: `replica-${index}`, items: [{ sku: 'SKU-REPLICA', quantity: 1, unitPriceCents: index }] },
      });
      expect(created.status).toBe(201);
      const cancelled = await requestJson('POST', `${canceller.baseUrl}/orders/${created.body.id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('CANCELLED');
      ids.push(created.body.id);
    });

    await waitFor(
      async () => (await queryTestDatabase<{ n: number }>(serverUrl, database, 'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL'))[0].n === 0,
      { timeoutMs: 90_000, intervalMs: 250, description: 'no pending outbox rows' },
    );
    const wanted = new Set(ids);
    const byOrderOf = (messages: RecordedMessage[]) => {
      const byOrder = new Map<string, RecordedMessage[]>();
      for (const message of messages) {
        if (message.key === null || !wanted.has(message.key)) continue;
        byOrder.set(message.key, [...(byOrder.get(message.key) ?? []), message]);
      }
      return byOrder;
    };
    const messages = await recorder!.waitUntil(
      (all) => {
        const byOrder = byOrderOf(all);
        return byOrder.size === wanted.size &&
          [...byOrder.values()].every((own) => new Set(own.map((message) => message.headers[Headers.messageType])).size === 2);
      },
      { timeoutMs: 60_000, description: `OrderCreated and OrderCancelled of all ${ORDERS} orders` },
    );

    const violations: string[] = [];
    for (const [orderId, own] of byOrderOf(messages)) {
      // `messages` is sorted by partition, then offset: the order a consumer of that partition sees.
      const partitions = new Set(own.map((message) => message.partition));
      if (partitions.size !== 1) violations.push(`${orderId}: spread over partitions ${[...partitions].join(', ')}`);
      const sequence = own.map((message) => message.headers[Headers.messageType]);
      if (sequence.indexOf('OrderCancelled') < sequence.indexOf('OrderCreated')) {
        violations.push(`${orderId}: ${sequence.join(' -> ')} at offsets ${own.map((message) => message.offset).join(', ')}`);
      }
    }
    expect(violations).toEqual([]);

    const perReplica = await Promise.all(processes.map(publishedBy));
    expect(perReplica.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(2 * ORDERS);
    // Leadership really moved between processes, or the test would prove nothing about replicas.
    expect(perReplica.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });
});
