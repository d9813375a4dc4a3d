import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type OrderCreated, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import {
  cancelOrder,
  eventRecord,
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
 * The recovery path of docs/operations.md for a genuine message suppressed by a forged copy: only
 * possible where consumers did not verify signatures (a stack run with `MESSAGE_SIGNING_DISABLED`,
 * or before signing was on), or with a leaked key. Here the whole stack runs unsigned, a forger
 * who read the real `OrderCreated`'s message id sends a larger copy first; inventory applies the
 * copy and dead-letters the real one as `PAYLOAD_MISMATCH`. The recovery: the order's owner (or
 * support, on the owner's behalf) cancels it. A cancel acts on the order id, which the copy had to
 * share to claim the message id, so it releases what the copy reserved and reverses the points it
 * credited: stock and balance end as if neither had happened, and the order is final.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('SUPPRESSED');
const STOCK = 50;
const UNSIGNED = { MESSAGE_SIGNING_KEY: '', MESSAGE_VERIFY_KEYS: '' };

describe('a genuine message suppressed by a forged copy, and its recovery (orders, inventory, loyalty as real processes)', () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string; orders?: string };
  let orders: ServiceProcess;
  let deadLetters: TopicRecorder;

  const sql = (database: 'inventory' | 'orders' | 'loyalty', text: string, params: unknown[] = []) =>
    queryTestDatabase<Record<string, any>>(serverUrl, databases[database]!, text, params);

  beforeAll(async () => {
    let inventory: ServiceProcess;
    ({ inventory, databases } = await startInventoryWithLoyalty(services, 'suppressed', UNSIGNED));
    databases.orders = await services.createDatabase('suppressed_orders');
    // The relay waits until the forger has sent its copy: the copy must come first.
    orders = await services.start({ service: 'orders', database: databases.orders, env: { ...UNSIGNED, OUTBOX_RELAY_ENABLED: 'false' } });
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
    await setStock(inventory.baseUrl, SKU, STOCK);
    await seedPrices(serverUrl, databases.orders, { [SKU]: 1000 });
  });

  afterAll(() => services.tearDown());

  it('when a forged copy claimed the real message id, then cancelling the order releases what the copy reserved and reverses its points', async () => {
    const customerId = uniqueName('suppressed-customer');
    const order = await placeOrder(orders.baseUrl, { customerId, items: [{ sku: SKU, quantity: 1 }] });
    const [row] = await sql('orders', "SELECT id, payload FROM outbox_messages WHERE aggregate_id = $1 AND message_type = 'OrderCreated'", [
      order.id,
    ]);
    const real = row.payload as OrderCreated;
    const copy: OrderCreated = { ...real, items: [{ ...real.items[0], quantity: 5 }], totalCents: real.items[0].unitPriceCents * 5 };
    const [copyAt] = await publishRecords(brokers, Topics.orders, [
      eventRecord(Topics.orders, 'OrderCreated', copy, { messageId: row.id as string, signWith: false }),
    ]);
    await waitForInboxMessage(serverUrl, databases.inventory, row.id as string, { consumer: 'inventory.order-events' });

    await orders.stop();
    await orders.restart({ env: { OUTBOX_RELAY_ENABLED: 'true' } });
    const [letter] = await deadLetters.waitForKey(order.id, { timeoutMs: 60_000, description: `the dead letter of ${order.id}` });
    expect(letter.headers).toMatchObject({ [Headers.messageId]: row.id, [DeadLetterHeaders.reason]: 'PAYLOAD_MISMATCH' });
    expect(Number(letter.headers[DeadLetterHeaders.originalOffset])).not.toBe(copyAt.offset);
    // The copy's effect: five units held, and its points owed, for the real order's id.
    expect(await sql('inventory', 'SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU])).toEqual([
      { available: STOCK - 5, reserved: 5 },
    ]);

    // The recovery.
    await waitFor(async () => (await getOrder(orders.baseUrl, order.id, customerId)).body.status !== 'PENDING', {
      timeoutMs: 60_000,
      description: `order ${order.id} to be answered`,
    });
    expect(await cancelOrder(orders.baseUrl, order.id, customerId)).toMatchObject({ status: 200, body: { status: 'CANCELLED' } });
    await waitFor(
      async () => (await sql('inventory', 'SELECT status FROM reservations WHERE order_id = $1', [order.id]))[0]?.status === 'RELEASED',
      { timeoutMs: 60_000, description: `the copy's reservation of ${order.id} to be released` },
    );
    expect(await sql('inventory', 'SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU])).toEqual([
      { available: STOCK, reserved: 0 },
    ]);
    const balance = async () => {
      const [accrued] = await sql('loyalty', 'SELECT coalesce(sum(points), 0)::int AS n FROM accruals WHERE customer_id = $1', [
        customerId,
      ]);
      const [reversed] = await sql('loyalty', 'SELECT coalesce(sum(points), 0)::int AS n FROM reversals WHERE customer_id = $1', [
        customerId,
      ]);
      return { accrued: accrued.n as number, reversed: reversed.n as number };
    };
    const settled = await waitFor(
      async () => {
        const now = await balance();
        return now.accrued > 0 && now.reversed === now.accrued ? now : undefined;
      },
      { timeoutMs: 60_000, description: `the copy's points of ${customerId} to be reversed` },
    );
    expect(settled.accrued).toBeGreaterThan(0);
    expect((await getOrder(orders.baseUrl, order.id, customerId)).body.status).toBe('CANCELLED');
  }, 240_000);
});
