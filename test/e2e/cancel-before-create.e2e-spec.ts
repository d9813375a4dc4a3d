import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import {
  cancelOrder,
  getOrder,
  placeOrder,
  publishRecords,
  seedPrices,
  setStock,
  testInfrastructure,
  TestServices,
  waitForInboxMessage,
} from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, type TopicRecorder, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';

/**
 * An `OrderCreated` that inventory dead-lettered, replayed after the
 * customer cancelled the order (and after inventory saw that cancel), must reserve nothing. Without
 * the remembered cancel, the replay reserved stock for a cancelled order and nothing released it.
 * Real processes; the handler failure is made real by a constraint the database enforces.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = `${uniqueSku('CBC')}-ITEM`;

describe('cancel before create (orders, inventory, loyalty as real processes)', () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string; orders?: string };
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let deadLetters: TopicRecorder;

  const sql = (database: 'inventory' | 'orders', text: string, params: unknown[] = []) =>
    queryTestDatabase<Record<string, any>>(serverUrl, databases[database]!, text, params);

  beforeAll(async () => {
    ({ inventory, databases } = await startInventoryWithLoyalty(services, 'cancel_first', {
      INBOX_MAX_ATTEMPTS: '2',
      INBOX_RETRY_BASE_MS: '20',
    }));
    databases.orders = await services.createDatabase('cancel_first_orders');
    orders = await services.start({ service: 'orders', database: databases.orders });
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
    await setStock(inventory.baseUrl, SKU, 10);
    await seedPrices(serverUrl, databases.orders, { [SKU]: 500 });
  });

  afterAll(() => services.tearDown());

  it('when a dead-lettered OrderCreated is replayed after its order was cancelled, then no stock is reserved and the order stays CANCELLED', async () => {
    // Every reservation insert fails while this constraint exists: the OrderCreated is dead-lettered.
    await sql('inventory', 'ALTER TABLE reservations ADD CONSTRAINT test_break_reservations CHECK (false) NOT VALID');
    const order = await placeOrder(orders.baseUrl, {
      customerId: uniqueName('cancel-first'),
      items: [{ sku: SKU, quantity: 3 }],
    });
    const [letter] = await deadLetters.waitForKey(order.id, {
      timeoutMs: 60_000,
      description: `the dead letter of ${order.id}'s OrderCreated`,
    });
    expect(letter.headers[Headers.messageType]).toBe('OrderCreated');

    const cancelled = await cancelOrder(orders.baseUrl, order.id, order.customerId);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'CANCELLED' } });
    await waitFor(async () => (await sql('inventory', 'SELECT 1 FROM cancelled_orders WHERE order_id = $1', [order.id])).length > 0, {
      timeoutMs: 30_000,
      description: `inventory to remember the cancel of ${order.id}`,
    });
    await sql('inventory', 'ALTER TABLE reservations DROP CONSTRAINT test_break_reservations');

    // The replay an operator would do: the dead letter's key, value and envelope, back on the topic.
    const headers = Object.fromEntries(
      Object.entries(letter.headers).filter(([name]) => !Object.values(DeadLetterHeaders).includes(name as never)),
    );
    await publishRecords(brokers, Topics.orders, [{ key: letter.key, value: letter.text, headers }]);
    await waitForInboxMessage(serverUrl, databases.inventory, headers[Headers.messageId], {
      consumer: 'inventory.order-events',
      description: 'inventory to handle the replayed OrderCreated',
    });

    expect(await sql('inventory', 'SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU])).toEqual([
      { available: 10, reserved: 0 },
    ]);
    expect(await sql('inventory', 'SELECT 1 FROM reservations WHERE order_id = $1', [order.id])).toEqual([]);
    expect(await sql('inventory', 'SELECT 1 FROM loyalty_commands WHERE order_id = $1', [order.id])).toEqual([]);
    const [answer] = await sql(
      'inventory',
      "SELECT id, payload FROM outbox_messages WHERE aggregate_id = $1 AND message_type = 'StockRejected'",
      [order.id],
    );
    expect(answer.payload).toMatchObject({ reasonCode: 'INVENTORY.ORDER_CANCELLED' });
    // Orders applies the answer and the order stays as the customer left it.
    await waitForInboxMessage(serverUrl, databases.orders!, answer.id, {
      consumer: 'orders.reservation-results',
      description: 'orders to apply the answer',
    });
    expect((await getOrder(orders.baseUrl, order.id, order.customerId)).body).toMatchObject({ status: 'CANCELLED' });
  });
});
