import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type OrderCreated, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import {
  eventRecord,
  orderCreatedPayload,
  publishRecords,
  type RawRecord,
  setStock,
  testInfrastructure,
  TestServices,
  waitForInboxMessage,
} from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, type TopicRecorder, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';

/**
 * A poison record holds up nothing but itself. Five records whose handler fails on every attempt
 * (copies of a reserved order's `OrderCreated` under new message ids: the reservations primary key
 * refuses each) sit on partition 0 of the real inventory process's topic, retried with the default
 * backoff (`INBOX_MAX_ATTEMPTS` 5 from 200 ms: about 3 s per record, 15 s for the five). An order
 * on partition 1, published once the first of them has failed, must be handled while they are
 * still being retried, not after; and a cancel behind them on partition 0 must wait for all five,
 * so per-key order holds. The test prints the measured delay (docs/inbox.md quotes it).
 */
const { serverUrl, brokers } = testInfrastructure();
const CONSUMER = 'inventory.order-events';
const POISON = 5;
const SKU = uniqueSku('POISON');

describe('a poison record on one partition (real inventory process)', () => {
  const services = new TestServices();
  let inventory: ServiceProcess;
  let database: string;
  let deadLetters: TopicRecorder;

  const processedAt = async (messageId: string): Promise<number> => {
    await waitForInboxMessage(serverUrl, database, messageId, { consumer: CONSUMER, timeoutMs: 90_000 });
    const [row] = await queryTestDatabase<{ at: Date }>(
      serverUrl,
      database,
      'SELECT received_at AS at FROM inbox_messages WHERE message_id = $1',
      [messageId],
    );
    return row.at.getTime();
  };
  const order = (): OrderCreated => orderCreatedPayload(uniqueName('poison-customer'), [{ sku: SKU, quantity: 1, unitPriceCents: 100 }]);
  const on = (partition: number, record: RawRecord): RawRecord => ({ ...record, partition });
  const lettersOf = (ids: string[]) => deadLetters.messages.filter((letter) => ids.includes(letter.headers[Headers.messageId]));

  beforeAll(async () => {
    database = await services.createDatabase('poison_inventory');
    inventory = await services.start({
      service: 'inventory',
      database,
      // Relay off: answers stay in the outbox table; no loyalty: its commands stay pending.
      env: { LOYALTY_BASE_URL: 'http://127.0.0.1:9', OUTBOX_RELAY_ENABLED: 'false' },
    });
    await setStock(inventory.baseUrl, SKU, 100);
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
  });

  afterAll(() => services.tearDown());

  it('when five failing records wait on partition 0, then an order on partition 1 is handled at once, and a cancel behind them waits for all five', async () => {
    // Partition 1 without poison anywhere: the delay the same machine gives when nothing fails.
    const calm = eventRecord(Topics.orders, 'OrderCreated', order());
    const calmSentAt = Date.now();
    await publishRecords(brokers, Topics.orders, [on(1, calm)]);
    const calmDelayMs = (await processedAt(calm.headers![Headers.messageId])) - calmSentAt;

    const victim = order();
    const original = eventRecord(Topics.orders, 'OrderCreated', victim);
    await publishRecords(brokers, Topics.orders, [on(0, original)]);
    await processedAt(original.headers![Headers.messageId]);
    const poison = Array.from({ length: POISON }, () => on(0, eventRecord(Topics.orders, 'OrderCreated', victim)));
    const poisonIds = poison.map((record) => record.headers![Headers.messageId]);
    const cancel = on(
      0,
      eventRecord(Topics.orders, 'OrderCancelled', {
        orderId: victim.orderId,
        customerId: victim.customerId,
        cancelledAt: new Date().toISOString(),
      }),
    );
    await publishRecords(brokers, Topics.orders, [...poison, cancel]);
    await inventory.process.waitForOutput(`attempt 1 for OrderCreated ${poisonIds[0]} failed`, 30_000);

    const other = eventRecord(Topics.orders, 'OrderCreated', order());
    const sentAt = Date.now();
    await publishRecords(brokers, Topics.orders, [on(1, other)]);
    const otherDelayMs = (await processedAt(other.headers![Headers.messageId])) - sentAt;
    // Handled while the poison still waits for its attempts: before, it waited for every one of them.
    expect(lettersOf(poisonIds).length).toBeLessThan(POISON);

    const cancelledAt = await processedAt(cancel.headers![Headers.messageId]);
    const letters = await waitFor(() => lettersOf(poisonIds).length === POISON && lettersOf(poisonIds), {
      timeoutMs: 60_000,
      description: 'every poison record dead-lettered',
    });
    expect(letters.map((letter) => letter.headers[DeadLetterHeaders.reason])).toEqual(Array(POISON).fill('HANDLER_FAILED'));
    expect(letters.map((letter) => letter.headers[Headers.messageId])).toEqual(poisonIds);
    const lastLetterAt = Math.max(...letters.map((letter) => Date.parse(letter.headers[DeadLetterHeaders.deadLetteredAt])));
    expect(cancelledAt).toBeGreaterThanOrEqual(lastLetterAt);
    expect(await queryTestDatabase(serverUrl, database, 'SELECT status FROM reservations WHERE order_id = $1', [victim.orderId])).toEqual([
      { status: 'RELEASED' },
    ]);
    console.log(
      `[poison-isolation] an order on another partition: ${otherDelayMs} ms behind ${POISON} failing records (${calmDelayMs} ms with none); the cancel behind them waited ${cancelledAt - sentAt} ms`,
    );
  }, 180_000);
});
