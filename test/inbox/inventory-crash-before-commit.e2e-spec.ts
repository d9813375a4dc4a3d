import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import {
  eventRecord,
  logLinesMentioning,
  orderCreatedPayload,
  publishRecords,
  scrapeMetric,
  setStock,
  testInfrastructure,
  TestServices,
} from '@test/fixtures';
import { committedOffsets, queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { InventoryFailpoints } from '@apps/inventory';

/**
 * Crash window: inventory's handler ran (stock reserved, StockReserved in the outbox, loyalty
 * command written) inside the inbox transaction, and the process dies before that transaction
 * commits. Nothing may survive: not the claim, not the reservation. Kafka never saw an offset
 * commit either, so the restarted consumer gets the record again and processes it as the first
 * time: one reservation, one command, one accrual. This is the "acknowledge only after the commit"
 * rule seen from the other side: had the offset been committed first, this order would be lost.
 */
const { serverUrl, brokers } = testInfrastructure();
const FAILPOINT = InventoryFailpoints.afterHandlerBeforeCommit;
const CONSUMER = 'inventory.order-events';
const SKU = uniqueSku('BEFORE-COMMIT');
const STOCK = 10;

describe(`inventory killed after its handler ran, before the inbox commit (${FAILPOINT})`, () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let inventory: ServiceProcess;

  const inventorySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);
  const count = async (query: Promise<Record<string, unknown>[]>) => Number((await query)[0].n);
  const effectsOf = async (orderId: string) => ({
    reservations: await count(inventorySql('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [orderId])),
    commands: await count(inventorySql('SELECT count(*)::int AS n FROM loyalty_commands WHERE order_id = $1', [orderId])),
    outbox: await count(inventorySql('SELECT count(*)::int AS n FROM outbox_messages WHERE aggregate_id = $1', [orderId])),
    accruals: await count(loyaltySql('SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [orderId])),
  });

  beforeAll(async () => {
    ({ inventory, databases } = await startInventoryWithLoyalty(services, 'crash_before_commit', {
      // The StockReserved answer is not needed here; kept off the shared topic.
      OUTBOX_RELAY_ENABLED: 'false',
    }));
    await setStock(inventory.baseUrl, SKU, STOCK);
  });

  afterAll(() => services.tearDown());

  it('when inventory is SIGKILLed inside the inbox transaction, then nothing is kept, and after a restart the record is redelivered and processed once: one reservation, one accrual', async () => {
    const order = orderCreatedPayload(uniqueName('before-commit-customer'), [{ sku: SKU, quantity: 3, unitPriceCents: 1000 }]);
    const record = eventRecord(Topics.orders, 'OrderCreated', order);
    const messageId = record.headers![Headers.messageId];
    // Armed for this order only; a graceful stop leaves the group, so the armed process joins at once.
    await inventory.stop();
    await inventory.restart({ failpoints: [`${FAILPOINT}@${order.orderId}`] });
    const [position] = await publishRecords(brokers, Topics.orders, [record]);

    await inventory.waitForFailpoint(FAILPOINT);
    // The handler had written everything; the kill rolled it all back, the claim included.
    expect(await inventorySql('SELECT 1 FROM inbox_messages WHERE message_id = $1', [messageId])).toHaveLength(0);
    expect(await effectsOf(order.orderId)).toEqual({ reservations: 0, commands: 0, outbox: 0, accruals: 0 });
    expect(await inventorySql('SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU])).toEqual([
      { available: STOCK, reserved: 0 },
    ]);
    const group = inventory.consumerGroups[0];
    expect((await committedOffsets(brokers, group, Topics.orders))[position.partition] ?? -1).toBeLessThanOrEqual(position.offset);

    // Same group, no failpoint: it resumes at the committed offset, at or before the record.
    await inventory.restart();
    await waitFor(async () => (await committedOffsets(brokers, group, Topics.orders))[position.partition] > position.offset, {
      timeoutMs: 90_000,
      description: 'the restarted consumer to consume the record again and commit past it',
    });
    await waitFor(
      async () =>
        (await inventorySql("SELECT 1 FROM loyalty_commands WHERE order_id = $1 AND status = 'DONE'", [order.orderId])).length > 0,
      {
        timeoutMs: 60_000,
        description: `the loyalty command of ${order.orderId} to be DONE`,
      },
    );

    // Processed (not skipped) by the restarted process, from the very record the dead one had.
    const inboxRows = await inventorySql('SELECT partition, "offset" FROM inbox_messages WHERE consumer = $1 AND message_id = $2', [
      CONSUMER,
      messageId,
    ]);
    expect(inboxRows).toEqual([{ partition: position.partition, offset: String(position.offset) }]);
    expect(await scrapeMetric(inventory.baseUrl, 'inbox_processed_total', { consumer: CONSUMER })).toBeGreaterThanOrEqual(1);
    expect(await effectsOf(order.orderId)).toEqual({ reservations: 1, commands: 1, outbox: 1, accruals: 1 });
    expect(await inventorySql('SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU])).toEqual([
      { available: STOCK - 3, reserved: 3 },
    ]);
    // No failed attempt was logged for it: the first run left nothing that could collide. Its only
    // mentions are the inbox's info line for a handled message, saying processed.
    const mentions = logLinesMentioning(inventory.process.logs, messageId);
    expect(mentions.length).toBeGreaterThan(0);
    expect(mentions).toEqual(mentions.map(() => expect.objectContaining({ level: 30, msg: 'message handled', outcome: 'processed' })));
  }, 240_000);
});
