import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import {
  eventRecord,
  listAccruals,
  logLinesMentioning,
  MetricBaseline,
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
 * Redelivery of one order event to the real inventory process, with the real loyalty process
 * behind it: a duplicate on the topic, and a crash after the database commit but before the
 * Kafka offset commit. Either way: one reservation, one loyalty command, one accrual.
 */
const { serverUrl, brokers } = testInfrastructure();
const CONSUMER = 'inventory.order-events';
const SKU = uniqueSku('REDELIVERY');
const STOCK = 50;

describe('redelivered order events (real inventory and loyalty processes)', () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string };
  let loyalty: ServiceProcess;
  let inventory: ServiceProcess;
  const ordersSent: string[] = [];

  const inventorySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.inventory, text, params);
  const loyaltySql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, databases.loyalty, text, params);
  const count = async (query: Promise<Record<string, unknown>[]>) => Number((await query)[0].n);

  function orderCreated() {
    const order = orderCreatedPayload(uniqueName('redelivery-customer'), [{ sku: SKU, quantity: 2, unitPriceCents: 1250 }]);
    ordersSent.push(order.orderId);
    return order;
  }

  /** The effects of one order in both services, once its loyalty command is no longer pending. */
  async function settledEffects(orderId: string) {
    await waitFor(
      async () => (await inventorySql("SELECT 1 FROM loyalty_commands WHERE order_id = $1 AND status = 'DONE'", [orderId])).length > 0,
      {
        timeoutMs: 60_000,
        description: `the loyalty command of ${orderId} to be DONE`,
      },
    );
    return {
      reservations: await count(inventorySql('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [orderId])),
      commands: await count(inventorySql('SELECT count(*)::int AS n FROM loyalty_commands WHERE order_id = $1', [orderId])),
      accruals: await count(loyaltySql('SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [orderId])),
    };
  }

  beforeAll(async () => {
    ({ inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'redelivery', {
      // Answers are not needed here; kept off the shared topic, where other runs' consumers read.
      OUTBOX_RELAY_ENABLED: 'false',
    }));
    await setStock(inventory.baseUrl, SKU, STOCK);
  });

  afterAll(() => services.tearDown());

  it('when the same record (same message-id) is published twice, then one reservation, one loyalty command, one accrual, and one counted duplicate', async () => {
    const order = orderCreated();
    const record = eventRecord(Topics.orders, 'OrderCreated', order);
    const duplicates = await MetricBaseline.take(inventory.baseUrl, 'inbox_duplicates_total', { consumer: CONSUMER });
    await publishRecords(brokers, Topics.orders, [record, record]);

    await duplicates.waitForIncrease({ description: 'the second copy to be skipped as a duplicate' });
    expect(await settledEffects(order.orderId)).toMatchObject({ reservations: 1, commands: 1, accruals: 1 });
    expect(await duplicates.increase()).toBe(1);
    const accrued = await listAccruals(loyalty.baseUrl, order.customerId);
    expect(accrued.body).toMatchObject({ totalPoints: 25, items: [{ orderId: order.orderId, points: 25 }] });
  });

  it('when inventory dies after its commit and before the offset commit, then after restart the message is redelivered and skipped: still one reservation and one accrual', async () => {
    const order = orderCreated();
    // Armed for this order only: other runs' orders pass the same point on the shared topic.
    // A graceful stop leaves the group first, so the restarted process joins at once.
    await inventory.stop();
    await inventory.restart({ failpoints: [`${InventoryFailpoints.afterCommitBeforeAck}@${order.orderId}`] });
    const record = eventRecord(Topics.orders, 'OrderCreated', order);
    const [position] = await publishRecords(brokers, Topics.orders, [record]);

    await inventory.waitForFailpoint(InventoryFailpoints.afterCommitBeforeAck);
    // The database has it all; Kafka's group offset has not moved past the record.
    expect(await inventorySql('SELECT 1 FROM inbox_messages WHERE message_id = $1', [record.headers![Headers.messageId]])).toHaveLength(1);
    expect(await count(inventorySql('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [order.orderId]))).toBe(1);
    const group = inventory.consumerGroups[0];
    expect((await committedOffsets(brokers, group, Topics.orders))[position.partition]).toBeLessThanOrEqual(position.offset);

    // Same group: it resumes from the committed offset, so the record comes again. (The dead
    // member holds the rebalance until its 30 s session expires; restart waits for that.)
    await inventory.restart();
    // Redelivered: the group resumed at or before the record, and its offset now moves past it.
    await waitFor(async () => (await committedOffsets(brokers, group, Topics.orders))[position.partition] > position.offset, {
      timeoutMs: 90_000,
      description: 'the restarted consumer to consume the record again and commit past it',
    });
    // Skipped: the fresh process counted duplicates, and the effects did not double. At least one,
    // not exactly one: the kill also lost the offset commits of every message handled since the
    // last commit, other runs' messages on this shared topic included, and they come back too.
    expect(await scrapeMetric(inventory.baseUrl, 'inbox_duplicates_total', { consumer: CONSUMER })).toBeGreaterThanOrEqual(1);
    expect(await settledEffects(order.orderId)).toMatchObject({ reservations: 1, commands: 1, accruals: 1 });
    // Had the handler run again, the reservations key would have refused it: attempts logged with
    // the message id, then a dead letter. The restarted process mentions it only in the inbox's
    // info line for each handled message, and that line says duplicate.
    const mentions = logLinesMentioning(inventory.process.logs, record.headers![Headers.messageId]);
    expect(mentions.length).toBeGreaterThan(0);
    expect(mentions).toEqual(mentions.map(() => expect.objectContaining({ level: 30, msg: 'message handled', outcome: 'duplicate' })));
  }, 240_000);

  it('when the file is done, then stock is conserved and every order sent has exactly one accrual', async () => {
    const [stock] = await inventorySql('SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU]);
    expect(stock).toEqual({ available: STOCK - 2 * ordersSent.length, reserved: 2 * ordersSent.length });
    const accruals = await loyaltySql('SELECT order_id, count(*)::int AS n FROM accruals GROUP BY order_id ORDER BY order_id');
    expect(accruals).toEqual([...ordersSent].sort().map((orderId) => ({ order_id: orderId, n: 1 })));
  });
});
