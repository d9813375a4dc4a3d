import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic } from '@libs/envelope';
import {
  eventRecord,
  getOrder,
  orderCreatedPayload,
  placeOrder,
  publishRecords,
  type RawRecord,
  seedPrices,
  setStock,
  testInfrastructure,
  TestServices,
  waitForDeadLetter,
} from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, type TopicRecorder, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';

/**
 * The forgeries of the review that asked for signed envelopes, run against the stack as `npm
 * start` runs it (every app signs and verifies with the local key) by a producer that can reach
 * the topics but holds no signing key: the test's own super user, more than any attacker gets.
 * Each is dead-lettered as SIGNATURE_INVALID, claims no message id and changes nothing: no points
 * minted, no reservation released, no order rejected, no attacker text shown to a customer.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('FORGE');

describe('forged events from a producer without the signing key (orders, inventory, loyalty as real processes)', () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string; orders?: string };
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let orderLetters: TopicRecorder;
  let answerLetters: TopicRecorder;

  const sql = (database: 'inventory' | 'orders' | 'loyalty', text: string, params: unknown[] = []) =>
    queryTestDatabase<Record<string, any>>(serverUrl, databases[database]!, text, params);
  const forged = (topic: string, type: string, payload: object): RawRecord => eventRecord(topic, type, payload, { signWith: false });

  /** Publishes `record`, waits for its dead letter on `recorder`, and returns the reason. */
  async function refused(topic: string, recorder: TopicRecorder, record: RawRecord): Promise<string> {
    const [position] = await publishRecords(brokers, topic, [record]);
    const letter = await waitForDeadLetter(recorder, topic, position, { timeoutMs: 60_000 });
    return letter.headers[DeadLetterHeaders.reason];
  }

  /** A real order, placed over HTTP and RESERVED by the real inventory. */
  async function reservedOrder(): Promise<{ id: string; customerId: string }> {
    const customerId = uniqueName('forge-victim');
    const order = await placeOrder(orders.baseUrl, { customerId, items: [{ sku: SKU, quantity: 1 }] });
    await waitFor(async () => (await getOrder(orders.baseUrl, order.id, customerId)).body.status === 'RESERVED', {
      timeoutMs: 60_000,
      description: `order ${order.id} to be RESERVED`,
    });
    return { id: order.id, customerId };
  }

  beforeAll(async () => {
    ({ inventory, databases } = await startInventoryWithLoyalty(services, 'forged_events'));
    databases.orders = await services.createDatabase('forged_events_orders');
    orders = await services.start({ service: 'orders', database: databases.orders });
    orderLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
    answerLetters = await services.recordTopic(deadLetterTopic(Topics.reservations));
    await setStock(inventory.baseUrl, SKU, 100);
    await seedPrices(serverUrl, databases.orders, { [SKU]: 100 });
  });

  afterAll(() => services.tearDown());

  it("when a forged OrderCreated names a customer of the forger's choosing at a huge price, then nothing is reserved and no point is accrued", async () => {
    const victim = uniqueName('forge-beneficiary');
    const payload = orderCreatedPayload(victim, [{ sku: SKU, quantity: 1, unitPriceCents: 100_000_000 }]);
    const record = forged(Topics.orders, 'OrderCreated', payload);
    expect(await refused(Topics.orders, orderLetters, record)).toBe('SIGNATURE_INVALID');
    expect(await sql('inventory', 'SELECT 1 FROM reservations WHERE order_id = $1', [payload.orderId])).toEqual([]);
    expect(await sql('inventory', 'SELECT 1 FROM inbox_messages WHERE message_id = $1', [record.headers!['message-id']])).toEqual([]);
    expect(await sql('inventory', 'SELECT 1 FROM loyalty_commands WHERE order_id = $1', [payload.orderId])).toEqual([]);
    expect(await sql('loyalty', 'SELECT 1 FROM accruals WHERE customer_id = $1', [victim])).toEqual([]);
  });

  it("when a forged OrderCancelled names another customer's reserved order, then its stock stays reserved and nothing is reversed", async () => {
    const order = await reservedOrder();
    const record = forged(Topics.orders, 'OrderCancelled', {
      orderId: order.id,
      customerId: order.customerId,
      cancelledAt: new Date().toISOString(),
    });
    expect(await refused(Topics.orders, orderLetters, record)).toBe('SIGNATURE_INVALID');
    expect(await sql('inventory', 'SELECT status FROM reservations WHERE order_id = $1', [order.id])).toEqual([{ status: 'RESERVED' }]);
    expect(await sql('inventory', "SELECT 1 FROM loyalty_commands WHERE id = 'loyalty-reversal:' || $1::text", [order.id])).toEqual([]);
    expect(await sql('inventory', 'SELECT 1 FROM cancelled_orders WHERE order_id = $1', [order.id])).toEqual([]);
  });

  it('when a forged StockRejected with its own text answers a real order, then the order stays RESERVED and shows no rejection', async () => {
    const order = await reservedOrder();
    const record = forged(Topics.reservations, 'StockRejected', {
      orderId: order.id,
      reasonCode: 'INVENTORY.INSUFFICIENT_STOCK',
      reason: 'Your card was declined: call +1 555 0100',
      rejectedAt: new Date().toISOString(),
    });
    expect(await refused(Topics.reservations, answerLetters, record)).toBe('SIGNATURE_INVALID');
    const { body } = await getOrder(orders.baseUrl, order.id, order.customerId);
    expect(body.status).toBe('RESERVED');
    expect(body).not.toHaveProperty('rejection');
  });
});
