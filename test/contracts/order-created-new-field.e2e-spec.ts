import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OrderEvents } from '@libs/contracts';
import { jsonSchemaOf } from '@libs/envelope';
import { deliverOrderEvents, orderCreatedPayload, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku } from '@tools/local-stack';

/**
 * The worked example of docs/contracts.md: a newer orders adds an optional field
 * to OrderCreated (`giftMessage`, and `giftWrap` on a line) while an inventory built from the
 * released declaration still consumes orders.order.v1. That inventory must reserve the order as
 * before, through the real envelope check and inbox, not dead-letter it.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('EVOLVE');
const released = JSON.parse(readFileSync(new URL('../../contracts/released/asyncapi.json', import.meta.url), 'utf8')) as {
  components: { messages: Record<string, { payload: unknown }> };
};

describe('an optional field added to OrderCreated, read by an inventory of the released contract (real process)', () => {
  const services = new TestServices();
  let inventory: ServiceProcess;
  let database: string;

  beforeAll(async () => {
    database = await services.createDatabase('contract_evolution_inventory');
    inventory = await services.start({
      service: 'inventory',
      database,
      env: {
        // Nothing is dispatched to loyalty here; its answers would only add noise.
        LOYALTY_BASE_URL: 'http://127.0.0.1:9',
        // Answers are not needed here; kept off the shared topic, where other runs' consumers read.
        OUTBOX_RELAY_ENABLED: 'false',
      },
    });
    await setStock(inventory.baseUrl, SKU, 10);
  });

  afterAll(() => services.tearDown());

  it('when inventory runs, then its OrderCreated declaration is the released one (the consumer side of the example is the previous release)', () => {
    expect(jsonSchemaOf(OrderEvents.OrderCreated.schema)).toEqual(released.components.messages.OrderCreated.payload);
  });

  it('when the new orders publishes OrderCreated with fields the released contract does not know, then inventory reserves the order instead of dead-lettering it', async () => {
    const order = orderCreatedPayload(uniqueName('evolve-customer'), [{ sku: SKU, quantity: 2, unitPriceCents: 500 }]);
    const newer = { ...order, giftMessage: 'Happy birthday!', items: order.items.map((line) => ({ ...line, giftWrap: true })) };
    await deliverOrderEvents({ serverUrl, brokers, database }, [{ type: 'OrderCreated', payload: newer }]);
    const reservations = await queryTestDatabase(serverUrl, database, 'SELECT order_id FROM reservations WHERE order_id = $1', [
      order.orderId,
    ]);
    expect(reservations).toEqual([{ order_id: order.orderId }]);
    const [{ available }] = await queryTestDatabase(serverUrl, database, 'SELECT available FROM stock_items WHERE sku = $1', [SKU]);
    expect(available).toBe(8);
  });
});
