import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type OrderCreated, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import { CRASHED_CONSUMER } from '@libs/inbox';
import {
  eventRecord,
  logLinesMentioning,
  orderCreatedPayload,
  publishRecords,
  type RawRecord,
  scrapeMetric,
  setStock,
  testInfrastructure,
  TestServices,
  waitForInboxMessage,
} from '@test/fixtures';
import {
  queryTestDatabase,
  type RecordedMessage,
  type ServiceProcess,
  type TopicRecorder,
  uniqueName,
  uniqueSku,
  waitFor,
} from '@tools/local-stack';
import { InventoryFailpoints } from '@apps/inventory';
import type { FailpointSpec } from '@libs/failpoints';

/**
 * The crash-loop breaker, on the real inventory process. One `OrderCreated` kills the process
 * whenever its handler has run (a failpoint armed for that order: SIGKILL before the commit), as a
 * record that runs the heap out or crashes native code would. It sits between two healthy orders
 * on one partition, in one batch. First death: the batch was in work, so the restarted process
 * works it one record at a time; the killer then dies alone twice more. At the third death
 * (`INBOX_CRASH_LOOP_DEATHS` default 3) the next process dead-letters it as `CRASHED_CONSUMER`
 * without handling it, and goes on: both healthy orders are reserved once, the killer never, the
 * stock adds up, and an order published afterwards is handled.
 */
const { serverUrl, brokers } = testInfrastructure();
const FAILPOINT = InventoryFailpoints.afterHandlerBeforeCommit;
const CONSUMER = 'inventory.order-events';
const SKU = uniqueSku('CRASH-LOOP');
const STOCK = 100;
const PARTITION = 0;

describe('a record that kills its consumer every time (crash-loop breaker, real inventory process)', () => {
  const services = new TestServices();
  let inventory: ServiceProcess;
  let database: string;
  let deadLetters: TopicRecorder;

  const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    queryTestDatabase<T>(serverUrl, database, text, params);
  const order = (quantity: number): OrderCreated =>
    orderCreatedPayload(uniqueName('crash-loop-customer'), [{ sku: SKU, quantity, unitPriceCents: 100 }]);
  const onPartition = (payload: OrderCreated): RawRecord => ({
    ...eventRecord(Topics.orders, 'OrderCreated', payload),
    partition: PARTITION,
  });
  const idOf = (record: RawRecord) => record.headers![Headers.messageId];
  const reservations = async (orderId: string) =>
    Number((await sql<{ n: number }>('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [orderId]))[0].n);
  const inboxRows = async (messageId: string) =>
    Number((await sql<{ n: number }>('SELECT count(*)::int AS n FROM inbox_messages WHERE message_id = $1', [messageId]))[0].n);

  beforeAll(async () => {
    database = await services.createDatabase('crash_loop_inventory');
    inventory = await services.start({
      service: 'inventory',
      database,
      // Relay off: answers stay in the outbox table; no loyalty: its commands stay pending.
      env: { LOYALTY_BASE_URL: 'http://127.0.0.1:9', OUTBOX_RELAY_ENABLED: 'false' },
    });
    await setStock(inventory.baseUrl, SKU, STOCK);
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
  });

  afterAll(() => services.tearDown());

  it('when the process is SIGKILLed three times handling one record, then that record is dead-lettered as CRASHED_CONSUMER, the others are handled once, and the consumer goes on', async () => {
    const [first, killer, second] = [order(2), order(5), order(3)];
    const records = [first, killer, second].map(onPartition);
    const armed: { failpoints: FailpointSpec[] } = { failpoints: [`${FAILPOINT}@${killer.orderId}`] };
    // A graceful stop leaves the group, so the armed process joins at once.
    await inventory.stop();
    await inventory.restart(armed);
    const positions = await publishRecords(brokers, Topics.orders, records);

    for (let death = 1; death <= 3; death++) {
      await inventory.waitForFailpoint(FAILPOINT, 90_000);
      const [mark] = await sql<{ in_work: boolean; first_offset: string; last_offset: string }>(
        'SELECT in_work, first_offset, last_offset FROM inbox_work_marks WHERE consumer = $1 AND topic = $2 AND partition = $3',
        [CONSUMER, Topics.orders, PARTITION],
      );
      expect(mark).toEqual(expect.objectContaining({ in_work: true }));
      expect(await reservations(killer.orderId)).toBe(0);
      // Still armed: were the killer handled again, this process would die as well.
      await inventory.restart(armed);
    }

    // The topic and its dead-letter topic are the shared broker's: consumers of other runs (other
    // groups, other keys) may dead-letter the same record for reasons of their own. Ours is this one.
    const ours = (letter: RecordedMessage) =>
      letter.headers[Headers.messageId] === idOf(records[1]) && letter.headers[DeadLetterHeaders.reason] === CRASHED_CONSUMER;
    await waitFor(() => deadLetters.messages.some(ours), { timeoutMs: 90_000, description: 'the killing record in the dead-letter topic' });
    const letters = deadLetters.messages.filter(ours);
    expect(letters).toHaveLength(1);
    expect(letters[0].headers[DeadLetterHeaders.consumer]).toBe(CONSUMER);
    expect(letters[0].headers[DeadLetterHeaders.originalOffset]).toBe(String(positions[1].offset));
    expect(letters[0].headers[DeadLetterHeaders.attempts]).toBe('3');

    // Nothing else lost or doubled: each healthy order claimed and reserved once, the killer never.
    for (const healthy of [records[0], records[2]])
      await waitForInboxMessage(serverUrl, database, idOf(healthy), { consumer: CONSUMER, timeoutMs: 90_000 });
    expect(await Promise.all([first, killer, second].map((payload) => reservations(payload.orderId)))).toEqual([1, 0, 1]);
    expect(await Promise.all(records.map((record) => inboxRows(idOf(record))))).toEqual([1, 0, 1]);
    expect(await sql('SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU])).toEqual([{ available: STOCK - 5, reserved: 5 }]);

    // The consumer goes on: an order published now is handled, and the breaker's mark is clear.
    const later = onPartition(order(1));
    await publishRecords(brokers, Topics.orders, [later]);
    await waitForInboxMessage(serverUrl, database, idOf(later), { consumer: CONSUMER, timeoutMs: 90_000 });
    expect(inventory.process.isRunning).toBe(true);
    expect(await scrapeMetric(inventory.baseUrl, 'inbox_dead_lettered_total', { consumer: CONSUMER, reason: CRASHED_CONSUMER })).toBe(1);
    // Other partitions of the shared topic may have had work in hand at a kill too: at least this one.
    expect(await scrapeMetric(inventory.baseUrl, 'inbox_consumer_deaths_total', { consumer: CONSUMER })).toBeGreaterThanOrEqual(1);
    const killerAt = `${Topics.orders}[${PARTITION}]@${positions[1].offset}..${positions[1].offset}`;
    expect(logLinesMentioning(inventory.process.logs, killerAt)).toContainEqual(
      expect.objectContaining({ msg: expect.stringContaining(`${killerAt} in work (3 death(s) in a row)`) }),
    );
    await waitFor(
      async () =>
        (
          await sql<{ deaths: number; in_work: boolean }>(
            'SELECT deaths, in_work FROM inbox_work_marks WHERE consumer = $1 AND topic = $2 AND partition = $3',
            [CONSUMER, Topics.orders, PARTITION],
          )
        ).every((mark) => mark.deaths === 0 && !mark.in_work),
      { timeoutMs: 30_000, description: 'the work mark of the partition cleared' },
    );
  }, 420_000);
});
