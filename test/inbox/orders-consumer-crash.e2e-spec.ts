import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type StockReserved, Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import {
  eventRecord,
  logLinesMentioning,
  placeOrder,
  publishRecords,
  scrapeMetric,
  seedPrices,
  testInfrastructure,
  TestServices,
} from '@test/fixtures';
import { committedOffsets, queryTestDatabase, type ServiceProcess, uniqueName, waitFor } from '@tools/local-stack';
import { OrdersFailpoints } from '@apps/orders';

/**
 * Crash windows on orders' own consumer of inventory's answers, on both sides of its inbox commit:
 * - before the commit (`orders.after-handler-before-commit`): the order was set RESERVED inside the
 *   inbox transaction, which dies with the process; the answer comes again and is applied then;
 * - after the commit (`orders.after-commit-before-ack`): the order is RESERVED and the inbox row
 *   committed, Kafka's offset not; the answer comes again and the inbox skips it.
 * Either way the status change is applied exactly once.
 *
 * The answers are published by the test, exactly as inventory's relay would write them, so that
 * the only process in play is the one being killed: the window is orders' consumer, not inventory.
 */
const { serverUrl, brokers } = testInfrastructure();
const CONSUMER = 'orders.reservation-results';

describe("orders' reservation-result consumer killed around its inbox commit (real orders process)", () => {
  const services = new TestServices();
  let database: string;
  let orders: ServiceProcess;

  const sql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, database, text, params);

  beforeAll(async () => {
    database = await services.createDatabase('orders_crash_ack');
    orders = await services.start({
      service: 'orders',
      database,
      env: {
        // The OrderCreated is not needed: the test answers for inventory. Kept off the shared topic.
        OUTBOX_RELAY_ENABLED: 'false',
        // Answers to other runs' orders may share the topic and fail here (unknown order): give them up fast.
        INBOX_MAX_ATTEMPTS: '2',
        INBOX_RETRY_BASE_MS: '10',
      },
    });
    await seedPrices(serverUrl, database, { 'SKU-ACK': 700 });
  });

  afterAll(() => services.tearDown());

  /** A PENDING order placed through the API, and inventory's StockReserved answer for it as a record. */
  async function pendingOrderAndAnswer(customer: string) {
    const order = await placeOrder(orders.baseUrl, {
      customerId: uniqueName(customer),
      items: [{ sku: 'SKU-ACK', quantity: 2 }],
    });
    expect(order.status).toBe('PENDING');
    const answer: StockReserved = { orderId: order.id, items: [{ sku: 'SKU-ACK', quantity: 2 }], reservedAt: new Date().toISOString() };
    const record = eventRecord(Topics.reservations, 'StockReserved', answer);
    return { order, record, messageId: record.headers![Headers.messageId] };
  }

  it('when orders is SIGKILLed after applying the answer and before its inbox commit, then nothing is kept, and after a restart the answer is redelivered and applied once', async () => {
    const FAILPOINT = OrdersFailpoints.afterHandlerBeforeCommit;
    const { order, record, messageId } = await pendingOrderAndAnswer('orders-before-commit-customer');
    // Armed for this order only; a graceful stop leaves the group, so the armed process joins at once.
    await orders.stop();
    await orders.restart({ failpoints: [`${FAILPOINT}@${order.id}`] });
    const [position] = await publishRecords(brokers, Topics.reservations, [record]);

    await orders.waitForFailpoint(FAILPOINT);
    // The handler had set RESERVED; the kill rolled it back together with the inbox claim.
    expect(await sql('SELECT status FROM orders WHERE id = $1', [order.id])).toEqual([{ status: 'PENDING' }]);
    expect(await sql('SELECT 1 FROM inbox_messages WHERE message_id = $1', [messageId])).toHaveLength(0);
    const group = orders.consumerGroups[0];
    expect((await committedOffsets(brokers, group, Topics.reservations))[position.partition] ?? -1).toBeLessThanOrEqual(position.offset);

    await orders.restart();
    await waitFor(async () => (await committedOffsets(brokers, group, Topics.reservations))[position.partition] > position.offset, {
      timeoutMs: 90_000,
      description: 'the restarted consumer to consume the answer again and commit past it',
    });
    expect(await sql('SELECT status FROM orders WHERE id = $1', [order.id])).toEqual([{ status: 'RESERVED' }]);
    expect(await sql('SELECT partition, "offset" FROM inbox_messages WHERE message_id = $1', [messageId])).toEqual([
      { partition: position.partition, offset: String(position.offset) },
    ]);
    // Processed by the restarted process, once; nothing skipped. (Answers for other runs' orders
    // fail here and are dead-lettered: they count neither as processed nor as duplicates.)
    expect(await scrapeMetric(orders.baseUrl, 'inbox_processed_total', { consumer: CONSUMER })).toBe(1);
    expect(await scrapeMetric(orders.baseUrl, 'inbox_duplicates_total', { consumer: CONSUMER })).toBe(0);
  }, 240_000);

  it('when orders is SIGKILLed after its inbox commit, then after a restart the answer is redelivered and skipped: the order is RESERVED once', async () => {
    const FAILPOINT = OrdersFailpoints.afterCommitBeforeAck;
    const { order, record, messageId } = await pendingOrderAndAnswer('orders-after-commit-customer');
    // Armed for this order only; a graceful stop leaves the group, so the armed process joins at once.
    await orders.stop();
    await orders.restart({ failpoints: [`${FAILPOINT}@${order.id}`] });
    const [position] = await publishRecords(brokers, Topics.reservations, [record]);

    await orders.waitForFailpoint(FAILPOINT);
    // The database has it all; Kafka's group offset has not moved past the record.
    const [applied] = await sql('SELECT status, updated_at FROM orders WHERE id = $1', [order.id]);
    expect(applied.status).toBe('RESERVED');
    expect(await sql('SELECT 1 FROM inbox_messages WHERE consumer = $1 AND message_id = $2', [CONSUMER, messageId])).toHaveLength(1);
    const group = orders.consumerGroups[0];
    expect((await committedOffsets(brokers, group, Topics.reservations))[position.partition] ?? -1).toBeLessThanOrEqual(position.offset);

    // Same group, no failpoint: it resumes at the committed offset, at or before the record.
    await orders.restart();
    await waitFor(async () => (await committedOffsets(brokers, group, Topics.reservations))[position.partition] > position.offset, {
      timeoutMs: 90_000,
      description: 'the restarted consumer to consume the answer again and commit past it',
    });

    // Skipped by the inbox: counted as a duplicate, and the restarted process processed nothing
    // (answers for other runs' orders fail here and are dead-lettered, never counted as processed).
    expect(await scrapeMetric(orders.baseUrl, 'inbox_duplicates_total', { consumer: CONSUMER })).toBeGreaterThanOrEqual(1);
    expect(await scrapeMetric(orders.baseUrl, 'inbox_processed_total', { consumer: CONSUMER })).toBe(0);
    // Applied once: the row was not written again (same updated_at), and one inbox row.
    expect(await sql('SELECT status, updated_at FROM orders WHERE id = $1', [order.id])).toEqual([applied]);
    expect(await sql('SELECT 1 FROM inbox_messages WHERE message_id = $1', [messageId])).toHaveLength(1);
    // Mentioned only by the inbox's info line for a handled message, which says duplicate.
    const mentions = logLinesMentioning(orders.process.logs, messageId);
    expect(mentions.length).toBeGreaterThan(0);
    expect(mentions).toEqual(mentions.map(() => expect.objectContaining({ level: 30, msg: 'message handled', outcome: 'duplicate' })));
  }, 240_000);
});
