import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type OrderCreated, type StockReserved, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import { createKafka } from '@libs/kafka';
import {
  eventRecord,
  serviceSigningKey,
  signRecord,
  getOrder,
  orderCreatedPayload,
  placeOrder,
  publishRecords,
  scrapeMetric,
  seedPrices,
  setStock,
  testInfrastructure,
  TestServices,
  waitForDeadLetter,
} from '@test/fixtures';
import { committedOffsets, queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { InboxFailpoints } from '@libs/inbox';

/**
 * The inbox takes a backlog in batches: the records of one partition, and of the other partitions
 * of the same fetch, share one transaction (one claim statement, the handlers in offset order, one
 * commit), and their offsets advance only after it. These tests queue records while the consumer is stopped, so that it meets them as a
 * backlog, then prove the batch's own windows with real processes: a crash between the batch's
 * commit and its offsets, and a failing message in the middle of a batch.
 */
const { serverUrl, brokers } = testInfrastructure();
const FAILPOINT = InboxFailpoints.afterBatchCommitBeforeOffsets;
const ORDERS = 24;
const STOCK = 1000;

const count = async (rows: Promise<Record<string, unknown>[]>) => Number((await rows)[0].n);

describe(`inventory killed after a batch committed, before its offsets (${FAILPOINT})`, () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let inventory: ServiceProcess;
  const sku = uniqueSku('BATCH');
  const inventorySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);

  beforeAll(async () => {
    ({ inventory, databases } = await startInventoryWithLoyalty(services, 'batch_crash', { OUTBOX_RELAY_ENABLED: 'false' }));
    await setStock(inventory.baseUrl, sku, STOCK);
  });

  afterAll(() => services.tearDown());

  it('when inventory is SIGKILLed after a batch commit, then the redelivered batch is skipped as duplicates: one reservation and one accrual per order, stock conserved', async () => {
    const orders: OrderCreated[] = Array.from({ length: ORDERS }, (_, n) =>
      orderCreatedPayload(uniqueName('batch-customer'), [{ sku, quantity: 1 + (n % 3), unitPriceCents: 1000 }]),
    );
    const records = orders.map((order) =>
      signRecord(Topics.orders, eventRecord(Topics.orders, 'OrderCreated', order), serviceSigningKey('orders')),
    );
    const target = orders[ORDERS - 1];
    // Armed before the records exist, so the failpoint cannot fire while the restart still waits
    // for /health. The records then go out in ONE produce request: each partition's records are
    // appended together and reach the consumer in one fetch, as a backlog would.
    await inventory.stop();
    await inventory.restart({ failpoints: [`${FAILPOINT}@${target.orderId}`] });
    const producer = createKafka({ brokers, clientId: uniqueName('test-batch-producer') }).producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      await producer.send({
        topic: Topics.orders,
        acks: -1,
        messages: records.map(({ key, value, headers }) => ({ key, value, headers })),
      });
    } finally {
      await producer.disconnect();
    }
    await inventory.waitForFailpoint(FAILPOINT);
    const targetId = records[ORDERS - 1].headers![Headers.messageId];
    const [claimed] = await inventorySql('SELECT partition, "offset" FROM inbox_messages WHERE message_id = $1', [targetId]);
    expect(claimed).toBeDefined();
    const targetPosition = { partition: Number(claimed.partition), offset: Number(claimed.offset) };

    // The batch holding the target committed (its reservation is there) with other orders in the
    // same transaction (same received_at), and no offset moved past it.
    const batchSize = await count(
      inventorySql(
        'SELECT count(*)::int AS n FROM inbox_messages WHERE received_at = (SELECT received_at FROM inbox_messages WHERE message_id = $1)',
        [targetId],
      ),
    );
    expect(batchSize).toBeGreaterThan(1);
    expect(await count(inventorySql('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [target.orderId]))).toBe(1);
    const group = inventory.consumerGroups[0];
    expect((await committedOffsets(brokers, group, Topics.orders))[targetPosition.partition] ?? -1).toBeLessThanOrEqual(
      targetPosition.offset,
    );
    // The transaction may hold the records of several partitions of the fetch: none of them moved past its first record there.
    const firstPerPartition = (
      await inventorySql(
        'SELECT partition, min("offset")::text AS first FROM inbox_messages WHERE received_at = (SELECT received_at FROM inbox_messages WHERE message_id = $1) GROUP BY partition',
        [targetId],
      )
    ).map((row) => ({ partition: Number(row.partition), first: Number(row.first) }));
    const committedNow = await committedOffsets(brokers, group, Topics.orders);
    for (const { partition, first } of firstPerPartition) expect(committedNow[partition] ?? -1).toBeLessThanOrEqual(first);

    await inventory.restart();
    await waitFor(
      async () => (await count(inventorySql("SELECT count(*)::int AS n FROM loyalty_commands WHERE status = 'DONE'"))) === ORDERS,
      {
        timeoutMs: 120_000,
        description: `the ${ORDERS} loyalty commands to be DONE`,
      },
    );
    await waitFor(async () => (await committedOffsets(brokers, group, Topics.orders))[targetPosition.partition] > targetPosition.offset, {
      timeoutMs: 60_000,
      description: 'the offset to move past the target record',
    });

    // The redelivered part of the batch was found in the inbox and changed nothing.
    expect(await scrapeMetric(inventory.baseUrl, 'inbox_duplicates_total', { consumer: 'inventory.order-events' })).toBeGreaterThanOrEqual(
      batchSize,
    );
    expect(await count(inventorySql('SELECT count(*)::int AS n FROM reservations'))).toBe(ORDERS);
    expect(await count(inventorySql('SELECT count(*)::int AS n FROM inbox_messages'))).toBe(ORDERS);
    const wanted = orders.reduce((sum, order) => sum + order.items[0].quantity, 0);
    expect(await inventorySql('SELECT available, reserved FROM stock_items WHERE sku = $1', [sku])).toEqual([
      { available: STOCK - wanted, reserved: wanted },
    ]);
    const accruals = await loyaltySql('SELECT order_id, count(*)::int AS n FROM accruals GROUP BY order_id');
    expect(accruals).toHaveLength(ORDERS);
    expect(accruals.every((row) => row.n === 1)).toBe(true);
  }, 300_000);
});

describe('a failing message in the middle of a batch (orders applying reservation results)', () => {
  const services = new TestServices();
  const MAX_ATTEMPTS = 3;
  let orders: ServiceProcess;
  let database: string;

  beforeAll(async () => {
    database = await services.createDatabase('orders_batch_isolation');
    orders = await services.start({
      service: 'orders',
      database,
      env: { OUTBOX_RELAY_ENABLED: 'false', INBOX_MAX_ATTEMPTS: String(MAX_ATTEMPTS), INBOX_RETRY_BASE_MS: '20' },
    });
    await seedPrices(serverUrl, database, { 'SKU-ANY': 100 });
  });

  afterAll(() => services.tearDown());

  const reserved = (orderId: string): StockReserved => ({
    orderId,
    items: [{ sku: 'SKU-ANY', quantity: 1 }],
    reservedAt: new Date().toISOString(),
  });

  it('when the middle record of a batch fails, then the batch is replayed one by one: the others are applied in order, the failing one is retried and dead-lettered', async () => {
    const body = { customerId: uniqueName('batch-isolation'), items: [{ sku: 'SKU-ANY', quantity: 1 }] };
    const first = await placeOrder(orders.baseUrl, body);
    const last = await placeOrder(orders.baseUrl, body);
    const deadLetters = await services.recordTopic(deadLetterTopic(Topics.reservations));
    // All on one partition (chosen: a record keyed unlike its payload is refused as AGGREGATE_MISMATCH), so one batch, the poison in the middle.
    const records = [
      eventRecord(Topics.reservations, 'StockReserved', reserved(first.id)),
      eventRecord(Topics.reservations, 'StockReserved', reserved(randomUUID())),
      eventRecord(Topics.reservations, 'StockReserved', reserved(last.id)),
    ].map((record) => ({ ...record, partition: 0 }));
    await orders.stop();
    const positions = await publishRecords(brokers, Topics.reservations, records);
    await orders.restart();

    const letter = await waitForDeadLetter(deadLetters, Topics.reservations, positions[1], { attempts: MAX_ATTEMPTS });
    expect(letter.headers[DeadLetterHeaders.reason]).toBe('HANDLER_FAILED');
    for (const order of [first, last]) {
      await waitFor(async () => (await getOrder(orders.baseUrl, order.id, body.customerId)).body.status === 'RESERVED', {
        timeoutMs: 60_000,
        description: `order ${order.id} to be RESERVED`,
      });
    }
    expect(
      await scrapeMetric(orders.baseUrl, 'inbox_batch_fallbacks_total', { consumer: 'orders.reservation-results' }),
    ).toBeGreaterThanOrEqual(1);
    // Each good record committed in a transaction of its own during the replay, in offset order.
    const rows = await queryTestDatabase(serverUrl, database, 'SELECT "offset", received_at FROM inbox_messages ORDER BY "offset"');
    expect(rows.map((row) => Number(row.offset))).toEqual([positions[0].offset, positions[2].offset]);
    expect(new Date(rows[0].received_at as string).getTime()).toBeLessThan(new Date(rows[1].received_at as string).getTime());
  }, 240_000);
});
