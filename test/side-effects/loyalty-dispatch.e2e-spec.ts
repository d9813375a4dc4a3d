import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type OrderCreated } from '@libs/contracts';
import { deliverOrderEvents, orderCreatedPayload, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import type { LayerSetting } from '@tools/test-support';
import { LOYALTY_LAYER_SETTINGS, startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { LoyaltyFailpoints } from '@apps/loyalty';
import { DispatcherFailpoints } from '@libs/commands';

/**
 * The side effect outside inventory's database: an accrual at the loyalty service, sent by
 * inventory's dispatcher with `Idempotency-Key: loyalty-accrual:<orderId>`. Each crash window
 * kills a real process (SIGKILL via a failpoint); loyalty must end with exactly one accrual per
 * order and the command DONE.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('LOYALTY');

interface CommandRow {
  status: string;
  attempts: number;
  last_error: string | null;
}

describe.each(LOYALTY_LAYER_SETTINGS)(
  'loyalty accruals through crashes and outages (real inventory and loyalty processes), $name',
  ({ env: layerEnv }) => accrualsThroughCrashes(layerEnv),
);

function accrualsThroughCrashes(layerEnv: LayerSetting['env']): void {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let loyalty: ServiceProcess;
  let inventory: ServiceProcess;
  const ordersSent: string[] = [];

  const inventorySql = <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    queryTestDatabase<R>(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);
  const accrualsOf = async (orderId: string) =>
    Number((await loyaltySql('SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [orderId]))[0].n);
  const commandOf = async (orderId: string): Promise<CommandRow | undefined> =>
    (
      await inventorySql<CommandRow & Record<string, unknown>>(
        'SELECT status, attempts, last_error FROM loyalty_commands WHERE order_id = $1',
        [orderId],
      )
    )[0];

  function orderCreated(): OrderCreated {
    const order = orderCreatedPayload(uniqueName('loyalty-customer'), [{ sku: SKU, quantity: 1, unitPriceCents: 4200 }]);
    ordersSent.push(order.orderId);
    return order;
  }

  /** Publishes the order and waits until inventory reserved it (its loyalty command exists). */
  async function reserve(order: OrderCreated): Promise<void> {
    await deliverOrderEvents({ serverUrl, brokers, database: databases.inventory }, [{ type: 'OrderCreated', payload: order }]);
  }

  const done = (orderId: string) =>
    waitFor(async () => ((await commandOf(orderId))?.status === 'DONE' ? commandOf(orderId) : undefined), {
      timeoutMs: 60_000,
      description: `the loyalty command of ${orderId} to be DONE`,
    });

  beforeAll(async () => {
    ({ inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'side_effects', {
      LOYALTY_REQUEST_TIMEOUT_MS: '2000',
      // Answers are not needed here; kept off the shared topic, where other runs' consumers read.
      OUTBOX_RELAY_ENABLED: 'false',
      ...layerEnv,
    }));
    await setStock(inventory.baseUrl, SKU, 100);
  });

  afterAll(() => services.tearDown());

  it('when all runs well, then the command is DONE after one call and loyalty holds one accrual', async () => {
    const order = orderCreated();
    await reserve(order);
    expect(await done(order.orderId)).toMatchObject({ status: 'DONE', attempts: 1, last_error: null });
    expect(await accrualsOf(order.orderId)).toBe(1);
  });

  it('when loyalty commits and dies before answering, then the dispatcher retries with the same key after loyalty restarts: one accrual, DONE', async () => {
    const order = orderCreated();
    await loyalty.stop();
    await loyalty.restart({ failpoints: [LoyaltyFailpoints.afterCommitBeforeResponse] });
    await reserve(order);

    await loyalty.waitForFailpoint(LoyaltyFailpoints.afterCommitBeforeResponse);
    // Loyalty committed the accrual and its key; inventory never heard back.
    expect(await accrualsOf(order.orderId)).toBe(1);
    expect(await loyaltySql('SELECT key FROM idempotency_keys')).toContainEqual({ key: `loyalty-accrual:${order.orderId}` });
    const failed = await waitFor(
      async () => {
        const command = await commandOf(order.orderId);
        return command && command.attempts >= 1 ? command : undefined;
      },
      { timeoutMs: 30_000, description: 'the lost answer to count as a failed attempt' },
    );
    expect(failed).toMatchObject({ status: 'PENDING' });
    expect(failed.last_error).toBeTruthy();

    await loyalty.restart();
    const command = await done(order.orderId);
    expect(command.attempts).toBeGreaterThanOrEqual(2);
    expect(await accrualsOf(order.orderId)).toBe(1);
  });

  it('when inventory dies after loyalty accepted and before marking the command, then after restart it resends with the same key: one accrual, DONE', async () => {
    const order = orderCreated();
    await inventory.stop();
    await inventory.restart({ failpoints: [`${DispatcherFailpoints.afterAcceptedBeforeMark}@${order.orderId}`] });
    await reserve(order);

    await inventory.waitForFailpoint(DispatcherFailpoints.afterAcceptedBeforeMark);
    expect(await accrualsOf(order.orderId)).toBe(1);
    expect(await commandOf(order.orderId)).toMatchObject({ status: 'PENDING', attempts: 0 });

    // No message needs redelivery here; a fresh group skips the dead member's 30 s session.
    await inventory.restart({ freshConsumerGroup: true });
    expect(await done(order.orderId)).toMatchObject({ status: 'DONE', attempts: 1 });
    expect(await accrualsOf(order.orderId)).toBe(1);
    // The resend was answered from loyalty's stored response, not by a second accrual.
    const [key] = await loyaltySql('SELECT response_body FROM idempotency_keys WHERE key = $1', [`loyalty-accrual:${order.orderId}`]);
    expect(key.response_body).toMatchObject({ orderId: order.orderId, points: 42 });
  });

  it('when loyalty is down for a while, then the command waits PENDING with growing attempts, and completes once loyalty is back: one accrual', async () => {
    const order = orderCreated();
    await loyalty.kill();
    await reserve(order);

    const waiting = await waitFor(
      async () => {
        const command = await commandOf(order.orderId);
        return command && command.attempts >= 3 ? command : undefined;
      },
      { timeoutMs: 30_000, description: 'three failed attempts while loyalty is down' },
    );
    expect(waiting).toMatchObject({ status: 'PENDING' });
    expect(waiting.last_error).toMatch(/fetch failed|ECONNREFUSED|TypeError/);
    expect(await accrualsOf(order.orderId)).toBe(0);

    await loyalty.restart();
    const command = await done(order.orderId);
    expect(command.attempts).toBeGreaterThan(waiting.attempts);
    expect(await accrualsOf(order.orderId)).toBe(1);
  });

  it('when the file is done, then every order sent has exactly one accrual and no command is left pending', async () => {
    const accruals = await loyaltySql('SELECT order_id, count(*)::int AS n FROM accruals GROUP BY order_id ORDER BY order_id');
    expect(accruals).toEqual([...ordersSent].sort().map((orderId) => ({ order_id: orderId, n: 1 })));
    expect(await inventorySql('SELECT status, count(*)::int AS n FROM loyalty_commands GROUP BY status')).toEqual([
      { status: 'DONE', n: ordersSent.length },
    ]);
  });
}
