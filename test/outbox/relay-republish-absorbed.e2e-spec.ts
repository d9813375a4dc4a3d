import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { getOrder, MetricBaseline, outboxRowsOf, setStock, testInfrastructure, TestServices, waitForOutboxDrained } from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, type TopicRecorder, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { placeOrderAndCrashRelay } from '../support/relay-crash.js';
import { RelayFailpoints } from '@libs/outbox';

const { serverUrl } = testInfrastructure();
const FAILPOINT = RelayFailpoints.afterPublishBeforeMark;
const INVENTORY_CONSUMER = 'inventory.order-events';
const SKU = uniqueSku('REPUBLISH');
const STOCK = 20;

/**
 * The outbox's promise and the inbox's, closed end to end with every service running: the orders
 * relay dies after Kafka acknowledged `OrderCreated` and before marking the row, so the restarted
 * relay publishes it again. The real inventory receives both copies and absorbs the second:
 * one reservation, one accrual, the order RESERVED, and inventory's duplicate counter rises by
 * exactly the number of extra copies on the topic.
 */
describe(`relay killed after the ack, with inventory and loyalty consuming (${FAILPOINT})`, () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let ordersDatabase: string;
  let inventory: ServiceProcess;
  let recorder: TopicRecorder;

  const inventorySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);
  const count = async (query: Promise<Record<string, unknown>[]>) => Number((await query)[0].n);

  beforeAll(async () => {
    // Inventory's relay stays on: its StockReserved is what moves the order to RESERVED.
    ({ inventory, databases } = await startInventoryWithLoyalty(services, 'republish'));
    await setStock(inventory.baseUrl, SKU, STOCK);
    ordersDatabase = await services.createDatabase('republish_orders');
    recorder = await services.recordTopic(Topics.orders);
  });

  afterAll(() => services.tearDown());

  it('when the relay is SIGKILLed after the ack and restarted, then inventory skips the republished copy: one reservation, one accrual, order RESERVED, duplicates = extra copies', async () => {
    const duplicates = await MetricBaseline.take(inventory.baseUrl, 'inbox_duplicates_total', { consumer: INVENTORY_CONSUMER });
    const customerId = uniqueName('republish-customer');
    const { orderId, relay } = await placeOrderAndCrashRelay(
      services,
      ordersDatabase,
      FAILPOINT,
      { customerId, items: [{ sku: SKU, quantity: 4 }] },
      { [SKU]: 500 },
    );
    const [pending] = await outboxRowsOf(serverUrl, ordersDatabase, orderId);
    expect(pending.published_at).toBeNull();

    // The writer process of placeOrderAndCrashRelay still runs and consumes inventory's answers.
    // A fresh group for the relay: the dead member's session must not delay its start.
    await relay.restart({ freshConsumerGroup: true });
    await waitForOutboxDrained(serverUrl, ordersDatabase, {
      aggregateId: orderId,
      timeoutMs: 30_000,
      description: `outbox row of ${orderId} marked published`,
    });
    await recorder.waitForKey(orderId, {
      copies: 2,
      timeoutMs: 30_000,
      description: `two copies of ${orderId}'s OrderCreated on the topic`,
    });
    const copiesOnTopic = () => recorder.messages.filter((message) => message.headers[Headers.messageId] === pending.id).length;

    const reserved = await waitFor(
      async () => {
        const { body } = await getOrder(relay.baseUrl, orderId, customerId);
        return body.status === 'RESERVED' ? body : undefined;
      },
      { timeoutMs: 60_000, description: `order ${orderId} to be RESERVED` },
    );
    expect(reserved.status).toBe('RESERVED');
    await waitFor(
      async () => (await inventorySql("SELECT 1 FROM loyalty_commands WHERE order_id = $1 AND status = 'DONE'", [orderId])).length > 0,
      {
        timeoutMs: 60_000,
        description: `the loyalty command of ${orderId} to be DONE`,
      },
    );
    // Every copy after the first must be counted as a duplicate, no more, no fewer.
    await waitFor(async () => (await duplicates.increase()) >= copiesOnTopic() - 1, {
      timeoutMs: 60_000,
      description: 'inventory to skip every extra copy of the message',
    });

    expect(copiesOnTopic()).toBeGreaterThanOrEqual(2);
    expect(await duplicates.increase()).toBe(copiesOnTopic() - 1);
    expect(
      await inventorySql('SELECT 1 FROM inbox_messages WHERE consumer = $1 AND message_id = $2', [INVENTORY_CONSUMER, pending.id]),
    ).toHaveLength(1);
    expect(await count(inventorySql('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [orderId]))).toBe(1);
    expect(await count(inventorySql('SELECT count(*)::int AS n FROM loyalty_commands WHERE order_id = $1', [orderId]))).toBe(1);
    expect(await count(loyaltySql('SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [orderId]))).toBe(1);
    expect(await inventorySql('SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU])).toEqual([
      { available: STOCK - 4, reserved: 4 },
    ]);
  }, 240_000);
});
