import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type OrderCreated } from '@libs/contracts';
import {
  customerToken,
  deliverOrderEvents,
  orderCreatedPayload,
  type OrderEvent,
  setStock,
  testInfrastructure,
  TestServices,
} from '@test/fixtures';
import { queryTestDatabase, requestJson, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import type { LayerSetting } from '@tools/test-support';
import { LOYALTY_LAYER_SETTINGS, startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';

/**
 * The compensation (a cancelled order must not keep its points): a cancel that releases a reservation writes
 * `loyalty-reversal:<orderId>` in the release transaction, and inventory's dispatcher sends it to
 * loyalty's `POST /reversals` through the same command table as the accrual. Each crash window of
 * that path kills a real process (SIGKILL via a failpoint scoped to the reversal's key); loyalty
 * must end with one accrual and exactly one reversal per cancelled reserved order, the customer's
 * balance at 0, and both commands DONE. A cancel of a rejected order reverses nothing.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('REVERSAL');
const SCARCE = uniqueSku('REVERSAL-SCARCE');

interface CommandRow {
  id: string;
  status: string;
  attempts: number;
}

describe.each(LOYALTY_LAYER_SETTINGS)(
  'loyalty reversals through crashes (real inventory and loyalty processes), $name',
  ({ env: layerEnv }) => reversalsThroughCrashes(layerEnv),
);

function reversalsThroughCrashes(layerEnv: LayerSetting['env']): void {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let loyalty: ServiceProcess;
  let inventory: ServiceProcess;
  /** Every order reserved then cancelled here: each must end with one accrual and one reversal. */
  const cancelledOrders: string[] = [];

  const inventorySql = <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    queryTestDatabase<R>(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);
  const count = async (table: 'accruals' | 'reversals', orderId: string) =>
    Number((await loyaltySql(`SELECT count(*)::int AS n FROM ${table} WHERE order_id = $1`, [orderId]))[0].n);
  const command = async (id: string): Promise<CommandRow | undefined> =>
    (await inventorySql<CommandRow & Record<string, unknown>>('SELECT id, status, attempts FROM loyalty_commands WHERE id = $1', [id]))[0];
  const balanceOf = async (customerId: string) =>
    (await requestJson('GET', `${loyalty.baseUrl}/balance`, { token: await customerToken(customerId, 'loyalty') })).body;

  const done = (id: string) =>
    waitFor(async () => ((await command(id))?.status === 'DONE' ? command(id) : undefined), {
      timeoutMs: 60_000,
      description: `the loyalty command ${id} to be DONE`,
    });

  const deliver = (event: OrderEvent) => deliverOrderEvents({ serverUrl, brokers, database: databases.inventory }, [event]);

  /** An order of 3 x 1000 cents (30 points), reserved and its accrual DONE. */
  async function reservedOrder(): Promise<OrderCreated> {
    const order = orderCreatedPayload(uniqueName('reversal-customer'), [{ sku: SKU, quantity: 3, unitPriceCents: 1000 }]);
    await deliver({ type: 'OrderCreated', payload: order });
    await done(`loyalty-accrual:${order.orderId}`);
    return order;
  }

  const cancel = (order: OrderCreated) => {
    cancelledOrders.push(order.orderId);
    return deliver({
      type: 'OrderCancelled',
      payload: { orderId: order.orderId, customerId: order.customerId, cancelledAt: new Date().toISOString() },
    });
  };

  beforeAll(async () => {
    ({ inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'reversals', {
      LOYALTY_REQUEST_TIMEOUT_MS: '2000',
      // Answers are not needed here; kept off the shared topic, where other runs' consumers read.
      OUTBOX_RELAY_ENABLED: 'false',
      ...layerEnv,
    }));
    await setStock(inventory.baseUrl, SKU, 100);
    await setStock(inventory.baseUrl, SCARCE, 1);
  });

  afterAll(() => services.tearDown());

  it('when a reserved order is cancelled, then the release writes the reversal command and loyalty takes back the accrual: balance 0', async () => {
    const order = await reservedOrder();
    expect(await balanceOf(order.customerId)).toMatchObject({ accruedPoints: 30, balancePoints: 30 });

    await cancel(order);

    expect(await done(`loyalty-reversal:${order.orderId}`)).toMatchObject({ status: 'DONE', attempts: 1 });
    expect(await count('reversals', order.orderId)).toBe(1);
    expect(await balanceOf(order.customerId)).toEqual({
      customerId: order.customerId,
      accruedPoints: 30,
      reversedPoints: 30,
      balancePoints: 0,
    });
  });

  it('when inventory dies after loyalty accepted the reversal and before marking it, then after restart it resends with the same key: one reversal, DONE', async () => {
    const order = await reservedOrder();
    const reversal = `loyalty-reversal:${order.orderId}`;
    await inventory.stop();
    await inventory.restart({ failpoints: [`dispatcher.after-accepted-before-mark@${reversal}`] });
    await cancel(order);

    await inventory.waitForFailpoint('dispatcher.after-accepted-before-mark');
    // Loyalty took the points back; inventory never recorded it.
    expect(await count('reversals', order.orderId)).toBe(1);
    expect(await command(reversal)).toMatchObject({ status: 'PENDING', attempts: 0 });

    // No message needs redelivery here; a fresh group skips the dead member's 30 s session.
    await inventory.restart({ freshConsumerGroup: true });
    expect(await done(reversal)).toMatchObject({ status: 'DONE', attempts: 1 });
    expect(await count('reversals', order.orderId)).toBe(1);
    // The resend was answered from loyalty's stored response, not by a second reversal.
    const [key] = await loyaltySql('SELECT response_body FROM idempotency_keys WHERE key = $1', [reversal]);
    expect(key.response_body).toMatchObject({ orderId: order.orderId, points: 30 });
    expect(await balanceOf(order.customerId)).toMatchObject({ balancePoints: 0 });
  });

  it('when loyalty commits the reversal and dies before answering, then the dispatcher retries with the same key after loyalty restarts: one reversal, DONE', async () => {
    const order = await reservedOrder();
    const reversal = `loyalty-reversal:${order.orderId}`;
    await loyalty.stop();
    await loyalty.restart({ failpoints: [`loyalty.after-commit-before-response@reversal-of-${order.orderId}`] });
    await cancel(order);

    await loyalty.waitForFailpoint('loyalty.after-commit-before-response');
    expect(await count('reversals', order.orderId)).toBe(1);
    await loyalty.restart();
    const sent = await done(reversal);
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect(await count('reversals', order.orderId)).toBe(1);
    expect(await balanceOf(order.customerId)).toMatchObject({ balancePoints: 0 });
  });

  it('when the reversal reaches loyalty before its accrual, then loyalty answers 409 and the dispatcher retries until the accrual is there: one of each', async () => {
    // Loyalty down: the accrual waits PENDING in inventory; the cancel then writes the reversal beside it.
    await loyalty.kill();
    const order = orderCreatedPayload(uniqueName('reversal-early'), [{ sku: SKU, quantity: 1, unitPriceCents: 500 }]);
    await deliver({ type: 'OrderCreated', payload: order });
    await cancel(order);
    // Only the reversal may go out first: the accrual is held back (due in an hour) until the reversal was
    // refused. A claim id of nobody's fences off an attempt in flight, whose retry would reschedule it.
    await inventorySql(
      "UPDATE loyalty_commands SET next_attempt_at = now() + interval '1 hour', claim_id = gen_random_uuid() WHERE id = $1",
      [`loyalty-accrual:${order.orderId}`],
    );
    await inventorySql('UPDATE loyalty_commands SET next_attempt_at = now() WHERE id = $1', [`loyalty-reversal:${order.orderId}`]);
    await loyalty.restart();

    const refused = await waitFor(
      async () => {
        const row = await inventorySql<{ status: string; attempts: number; last_error: string | null }>(
          'SELECT status, attempts, last_error FROM loyalty_commands WHERE id = $1',
          [`loyalty-reversal:${order.orderId}`],
        );
        return row[0]?.last_error?.includes('LOYALTY.ACCRUAL_NOT_FOUND') ? row[0] : undefined;
      },
      { timeoutMs: 30_000, description: 'the early reversal to be refused with 409 LOYALTY.ACCRUAL_NOT_FOUND' },
    );
    // Refused "not yet", not parked: it stays PENDING and is retried.
    expect(refused.status).toBe('PENDING');
    expect(await count('reversals', order.orderId)).toBe(0);

    await inventorySql('UPDATE loyalty_commands SET next_attempt_at = now() WHERE id = $1', [`loyalty-accrual:${order.orderId}`]);
    await done(`loyalty-accrual:${order.orderId}`);
    await done(`loyalty-reversal:${order.orderId}`);
    expect([await count('accruals', order.orderId), await count('reversals', order.orderId)]).toEqual([1, 1]);
    expect(await balanceOf(order.customerId)).toMatchObject({ accruedPoints: 5, reversedPoints: 5, balancePoints: 0 });
  });

  it('when an order that was rejected is cancelled, then nothing was accrued and nothing is reversed', async () => {
    const order = orderCreatedPayload(uniqueName('reversal-rejected'), [{ sku: SCARCE, quantity: 2, unitPriceCents: 1000 }]);
    await deliver({ type: 'OrderCreated', payload: order });
    await deliver({
      type: 'OrderCancelled',
      payload: { orderId: order.orderId, customerId: order.customerId, cancelledAt: new Date().toISOString() },
    });

    expect(await inventorySql('SELECT id FROM loyalty_commands WHERE order_id = $1', [order.orderId])).toEqual([]);
    expect(await balanceOf(order.customerId)).toMatchObject({ accruedPoints: 0, reversedPoints: 0, balancePoints: 0 });
  });

  it('when the file is done, then every cancelled reserved order has exactly one accrual and one reversal, and every command is DONE', async () => {
    const perOrder = async (table: 'accruals' | 'reversals') =>
      loyaltySql(`SELECT order_id, count(*)::int AS n FROM ${table} GROUP BY order_id ORDER BY order_id`);
    const expected = [...cancelledOrders].sort().map((orderId) => ({ order_id: orderId, n: 1 }));
    expect(await perOrder('accruals')).toEqual(expected);
    expect(await perOrder('reversals')).toEqual(expected);
    expect(await inventorySql('SELECT status, count(*)::int AS n FROM loyalty_commands GROUP BY status')).toEqual([
      { status: 'DONE', n: 2 * cancelledOrders.length },
    ]);
  });
}
