import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { failpointSleepMarker } from '@libs/failpoints';
import { deliverOrderEvents, MetricBaseline, orderCreatedPayload, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import type { LayerSetting } from '@tools/test-support';
import { LOYALTY_LAYER_SETTINGS, startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { LoyaltyFailpoints } from '@apps/loyalty';

/**
 * The client gives up, the partner does not: loyalty commits the accrual, then answers only after
 * inventory's `LOYALTY_REQUEST_TIMEOUT_MS` has passed. Nothing crashes; inventory cannot tell this
 * from a lost request, so it retries with the same `Idempotency-Key`, and loyalty replays the stored
 * answer instead of paying twice. Loyalty is made slow by arming its own failpoint with a sleep
 * (`FAILPOINTS=loyalty.after-commit-before-response@<orderId> executed=sleep(<ms>)`): only the call
 * that executed is slowed, the replay answers at once.
 */
const { serverUrl, brokers } = testInfrastructure();
const FAILPOINT = LoyaltyFailpoints.afterCommitBeforeResponse;
const REQUEST_TIMEOUT_MS = 1000;
/** Well past the client's timeout, so the first call surely times out while loyalty has committed. */
const LOYALTY_DELAY_MS = 6000;
const SKU = uniqueSku('TIMEOUT');

describe.each(LOYALTY_LAYER_SETTINGS)(
  'a loyalty call that times out on the client while loyalty commits (real inventory and loyalty processes), $name',
  ({ env: layerEnv }) => clientTimeout(layerEnv),
);

function clientTimeout(layerEnv: LayerSetting['env']): void {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let inventory: ServiceProcess;
  let loyalty: ServiceProcess;

  const inventorySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);

  beforeAll(async () => {
    ({ inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'loyalty_timeout', {
      LOYALTY_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      // Answers are not needed here; kept off the shared topic.
      OUTBOX_RELAY_ENABLED: 'false',
      ...layerEnv,
    }));
    await setStock(inventory.baseUrl, SKU, 10);
  });

  afterAll(() => services.tearDown());

  it('when loyalty commits and answers after the client timeout, then the retry with the same key is replayed: one accrual, command DONE', async () => {
    const order = orderCreatedPayload(uniqueName('timeout-customer'), [{ sku: SKU, quantity: 1, unitPriceCents: 3000 }]);
    const key = `loyalty-accrual:${order.orderId}`;
    await loyalty.stop();
    await loyalty.restart({ failpoints: [`${FAILPOINT}@${order.orderId} executed=sleep(${LOYALTY_DELAY_MS})`] });
    const retried = await MetricBaseline.take(inventory.baseUrl, 'loyalty_commands_retried_total');
    await deliverOrderEvents({ serverUrl, brokers, database: databases.inventory }, [{ type: 'OrderCreated', payload: order }]);

    // Loyalty committed and is now holding its answer back.
    await loyalty.process.waitForOutput(failpointSleepMarker(FAILPOINT), 30_000);
    expect(await loyaltySql('SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [order.orderId])).toEqual([{ n: 1 }]);
    // The client gave up first: a failed attempt, counted as a retry, while loyalty still sleeps.
    await retried.waitForIncrease({
      timeoutMs: LOYALTY_DELAY_MS,
      description: 'the call to time out on the client and be scheduled again',
    });
    expect(loyalty.process.isRunning).toBe(true);

    const command = await waitFor(
      async () => {
        const [row] = await inventorySql('SELECT status, attempts, last_error FROM loyalty_commands WHERE order_id = $1', [order.orderId]);
        return row?.status === 'DONE' ? row : undefined;
      },
      { timeoutMs: 60_000, description: `the loyalty command of ${order.orderId} to be DONE` },
    );
    expect(command).toMatchObject({ status: 'DONE', last_error: null });
    expect(command.attempts).toBeGreaterThanOrEqual(2);
    expect(await loyaltySql('SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [order.orderId])).toEqual([{ n: 1 }]);
    const [stored] = await loyaltySql('SELECT response_body FROM idempotency_keys WHERE key = $1', [key]);
    expect(stored.response_body).toMatchObject({ orderId: order.orderId, points: 30 });
    // The slow answer was for the executed call only: the replay was not slowed.
    expect(loyalty.process.logs.split(failpointSleepMarker(FAILPOINT)).length - 1).toBe(1);
  }, 180_000);
}
