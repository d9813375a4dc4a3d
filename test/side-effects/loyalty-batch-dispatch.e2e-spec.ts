import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type OrderCreated } from '@libs/contracts';
import { deliverOrderEvents, orderCreatedPayload, scrapeMetric, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import type { LayerSetting } from '@tools/test-support';
import { LOYALTY_BATCH_SETTINGS, startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { LoyaltyFailpoints } from '@apps/loyalty';

/**
 * Accruals sent in batches (`POST /accruals/batch`) between real inventory and loyalty processes,
 * through loyalty's crash window. To have several commands due in one claim, loyalty is down
 * while the orders are reserved: every poll (1 s apart) claims all of them, and their retries
 * (at most 100 ms) make them due again before the next poll, so the first claim after loyalty is
 * back holds them all.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('BATCH');
const ORDERS = 5;

describe.each(LOYALTY_BATCH_SETTINGS)(
  'loyalty accruals in batches through a crash (real inventory and loyalty processes), $name',
  ({ env: layerEnv }) => accrualsInBatches(layerEnv),
);

function accrualsInBatches(layerEnv: LayerSetting['env']): void {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let loyalty: ServiceProcess;
  let inventory: ServiceProcess;

  const inventorySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);
  const accrualsOf = async (orders: OrderCreated[]) =>
    loyaltySql('SELECT order_id::text, count(*)::int AS n FROM accruals WHERE order_id = ANY($1) GROUP BY order_id ORDER BY order_id', [
      orders.map((order) => order.orderId),
    ]);
  const oncePerOrder = (orders: OrderCreated[]) =>
    orders.map((order) => ({ order_id: order.orderId, n: 1 })).sort((a, b) => a.order_id.localeCompare(b.order_id));
  const commandsOf = (orders: OrderCreated[]) =>
    inventorySql('SELECT status, attempts FROM loyalty_commands WHERE order_id = ANY($1)', [orders.map((order) => order.orderId)]);

  /** Reserves `ORDERS` orders while loyalty is down, and waits until each command has failed twice (so they are due together). */
  async function commandsWaitingTogether(): Promise<OrderCreated[]> {
    const orders = Array.from({ length: ORDERS }, () =>
      orderCreatedPayload(uniqueName('batch-customer'), [{ sku: SKU, quantity: 1, unitPriceCents: 2500 }]),
    );
    const events = orders.map((order) => ({ type: 'OrderCreated' as const, payload: order }));
    await deliverOrderEvents({ serverUrl, brokers, database: databases.inventory }, events);
    await waitFor(async () => (await commandsOf(orders)).every((command) => Number(command.attempts) >= 2), {
      timeoutMs: 30_000,
      description: 'every command to have failed twice while loyalty is down',
    });
    return orders;
  }

  beforeAll(async () => {
    ({ inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'loyalty_batches', {
      LOYALTY_DISPATCH_INTERVAL_MS: '1000',
      LOYALTY_RETRY_BASE_MS: '50',
      LOYALTY_RETRY_MAX_MS: '100',
      // Answers are not needed here; kept off the shared topic, where other runs' consumers read.
      OUTBOX_RELAY_ENABLED: 'false',
      ...layerEnv,
    }));
    await setStock(inventory.baseUrl, SKU, 100);
  });

  afterAll(() => services.tearDown());

  it('when several accruals are due at once, then they go in one batch request: each order credited once, every command DONE', async () => {
    await loyalty.kill();
    const orders = await commandsWaitingTogether();
    await loyalty.restart();

    await waitFor(async () => (await commandsOf(orders)).every((command) => command.status === 'DONE'), {
      timeoutMs: 30_000,
      description: 'every command to be DONE',
    });
    expect(await accrualsOf(orders)).toEqual(oncePerOrder(orders));
    expect(await scrapeMetric(loyalty.baseUrl, 'http_request_duration_seconds_count', { route: '/accruals/batch', status: '200' })).toBe(1);
    expect(await scrapeMetric(loyalty.baseUrl, 'http_request_duration_seconds_count', { route: '/accruals' })).toBe(0);
  });

  it('when loyalty commits a batch and dies before answering, then the batch is sent again after restart: each order credited once, every command DONE', async () => {
    await loyalty.kill();
    const orders = await commandsWaitingTogether();
    // Scoped to one order in the middle of the batch: the process dies after the batch's commit.
    await loyalty.restart({ failpoints: [`${LoyaltyFailpoints.afterCommitBeforeResponse}@${orders[2].orderId}`] });
    await loyalty.waitForFailpoint(LoyaltyFailpoints.afterCommitBeforeResponse);

    // One statement credited the whole batch and stored its keys before the crash; inventory heard nothing.
    expect(await accrualsOf(orders)).toEqual(oncePerOrder(orders));
    const keys = orders.map((order) => `loyalty-accrual:${order.orderId}`);
    expect((await loyaltySql('SELECT key FROM idempotency_keys WHERE key = ANY($1) ORDER BY key', [keys])).map((row) => row.key)).toEqual(
      [...keys].sort(),
    );
    expect((await commandsOf(orders)).every((command) => command.status === 'PENDING')).toBe(true);

    await loyalty.restart();
    await waitFor(async () => (await commandsOf(orders)).every((command) => command.status === 'DONE'), {
      timeoutMs: 30_000,
      description: 'every command to be DONE after the restart',
    });
    expect(await accrualsOf(orders)).toEqual(oncePerOrder(orders));
    expect(await scrapeMetric(loyalty.baseUrl, 'http_request_duration_seconds_count', { route: '/accruals/batch' })).toBeGreaterThanOrEqual(
      1,
    );
  });
}
