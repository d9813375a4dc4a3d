import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type OrderCancelled, type OrderCreated, type OrderLine, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import {
  eventRecord,
  MetricBaseline,
  orderCreatedPayload,
  publishRecords,
  type RawRecord,
  type RecordPosition,
  scrapeMetric,
  type ServiceProcess,
  setStock,
  testInfrastructure,
  TestServices,
  waitForDeadLetter,
  waitForInboxMessage,
} from '@test/fixtures';
import { queryTestDatabase, type TopicRecorder, uniqueSku } from '@tools/test-support';

/**
 * The inventory service as a real process consuming the real `orders.order.v1` topic through its
 * inbox. Its relay is off (answers stay in its outbox table, where the tests read them, instead
 * of reaching other people's consumers on the shared broker) and loyalty is unreachable (the
 * commands stay pending). Every order id, SKU and message id is this run's own.
 */
const { serverUrl, brokers } = testInfrastructure();
const CONSUMER = 'inventory.order-events';
const MAX_ATTEMPTS = 2;
const run = uniqueSku('INV');
const APPLE = `${run}-APPLE`;
const PEAR = `${run}-PEAR`;

interface StockRow {
  available: number;
  reserved: number;
}

describe('inventory consuming order events (real process, real Postgres and Kafka)', () => {
  const services = new TestServices();
  let database: string;
  let inventory: ServiceProcess;
  let deadLetters: TopicRecorder;

  const sql = <R extends Record<string, unknown> = Record<string, any>>(text: string, params: unknown[] = []) =>
    queryTestDatabase<R>(serverUrl, database, text, params);
  const stockOf = async (sku: string): Promise<StockRow> =>
    (await sql<StockRow & Record<string, unknown>>('SELECT available, reserved FROM stock_items WHERE sku = $1', [sku]))[0];
  const metric = (name: string, labels: Record<string, string> = {}) =>
    scrapeMetric(inventory.baseUrl, name, { consumer: CONSUMER, ...labels });
  const publish = (records: RawRecord[]) => publishRecords(brokers, Topics.orders, records);

  const orderCreated = (lines: Pick<OrderLine, 'sku' | 'quantity'>[]): OrderCreated =>
    orderCreatedPayload(
      `customer-${run}`,
      lines.map((line) => ({ ...line, unitPriceCents: 250 })),
    );
  const cancelled = (orderId: string): OrderCancelled => ({
    orderId,
    customerId: `customer-${run}`,
    cancelledAt: new Date().toISOString(),
  });

  /** Waits until the inbox committed `messageId`: the handler's whole transaction is visible then. */
  const processed = (messageId: string) =>
    waitForInboxMessage(serverUrl, database, messageId, { consumer: CONSUMER, description: `inventory to process message ${messageId}` });

  const answersFor = (orderId: string) =>
    sql<{ message_type: string; payload: any; headers: Record<string, string>; key: string }>(
      'SELECT message_type, payload, headers, key FROM outbox_messages WHERE aggregate_id = $1 ORDER BY seq',
      [orderId],
    );

  /** The dead letter of the record published at `position`, by the headers that name its origin. */
  const deadLetterOf = (position: RecordPosition) => waitForDeadLetter(deadLetters, Topics.orders, position);

  beforeAll(async () => {
    database = await services.createDatabase('inventory_order_events');
    inventory = await services.start({
      service: 'inventory',
      database,
      env: {
        LOYALTY_BASE_URL: 'http://127.0.0.1:9',
        LOYALTY_RETRY_BASE_MS: '3600000',
        OUTBOX_RELAY_ENABLED: 'false',
        INBOX_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
        INBOX_RETRY_BASE_MS: '20',
      },
    });
    // After the start: the service creates its dead-letter topic when missing.
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
    await setStock(inventory.baseUrl, APPLE, 10);
    await setStock(inventory.baseUrl, PEAR, 4);
  });

  afterAll(() => services.tearDown());

  it('when an order can be served, then stock, reservation, loyalty command and StockReserved commit together with the inbox row', async () => {
    const before = { apple: await stockOf(APPLE), pear: await stockOf(PEAR) };
    const order = orderCreated([
      { sku: PEAR, quantity: 1 },
      { sku: APPLE, quantity: 2 },
      { sku: APPLE, quantity: 1 },
    ]);
    const record = eventRecord(Topics.orders, 'OrderCreated', order);
    await publish([record]);
    await processed(record.headers![Headers.messageId]);

    expect(await stockOf(APPLE)).toEqual({ available: before.apple.available - 3, reserved: before.apple.reserved + 3 });
    expect(await stockOf(PEAR)).toEqual({ available: before.pear.available - 1, reserved: before.pear.reserved + 1 });
    const [reservation] = await sql('SELECT status, items FROM reservations WHERE order_id = $1', [order.orderId]);
    expect(reservation).toEqual({
      status: 'RESERVED',
      items: [
        { sku: APPLE, quantity: 3 },
        { sku: PEAR, quantity: 1 },
      ].sort((a, b) => (a.sku < b.sku ? -1 : 1)),
    });
    const commands = await sql('SELECT id, customer_id, points, status FROM loyalty_commands WHERE order_id = $1', [order.orderId]);
    expect(commands).toEqual([{ id: `loyalty-accrual:${order.orderId}`, customer_id: order.customerId, points: 10, status: 'PENDING' }]);
    const answers = await answersFor(order.orderId);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ message_type: 'StockReserved', key: order.orderId, payload: { orderId: order.orderId } });
    expect(answers[0].headers[Headers.causationId]).toBe(record.headers![Headers.messageId]);
  });

  it('when an order wants more than is available, then StockRejected INSUFFICIENT_STOCK, and stock, reservations and commands are untouched', async () => {
    const before = { apple: await stockOf(APPLE), pear: await stockOf(PEAR) };
    const order = orderCreated([
      { sku: APPLE, quantity: 1 },
      { sku: PEAR, quantity: before.pear.available + 1 },
    ]);
    const record = eventRecord(Topics.orders, 'OrderCreated', order);
    await publish([record]);
    await processed(record.headers![Headers.messageId]);

    expect(await stockOf(APPLE)).toEqual(before.apple);
    expect(await stockOf(PEAR)).toEqual(before.pear);
    expect(await sql('SELECT 1 FROM reservations WHERE order_id = $1', [order.orderId])).toEqual([]);
    expect(await sql('SELECT 1 FROM loyalty_commands WHERE order_id = $1', [order.orderId])).toEqual([]);
    const [answer] = await answersFor(order.orderId);
    expect(answer).toMatchObject({
      message_type: 'StockRejected',
      payload: { orderId: order.orderId, reasonCode: 'INVENTORY.INSUFFICIENT_STOCK' },
    });
    expect(answer.payload.reason).toContain(PEAR);
  });

  it('when an order names an unknown SKU, then StockRejected UNKNOWN_SKU, and the known line is not reserved either', async () => {
    const before = await stockOf(APPLE);
    const unknown = `${run}-DURIAN`;
    const order = orderCreated([
      { sku: APPLE, quantity: 1 },
      { sku: unknown, quantity: 1 },
    ]);
    const record = eventRecord(Topics.orders, 'OrderCreated', order);
    await publish([record]);
    await processed(record.headers![Headers.messageId]);

    expect(await stockOf(APPLE)).toEqual(before);
    expect(await sql('SELECT 1 FROM reservations WHERE order_id = $1', [order.orderId])).toEqual([]);
    const [answer] = await answersFor(order.orderId);
    expect(answer).toMatchObject({ message_type: 'StockRejected', payload: { reasonCode: 'INVENTORY.UNKNOWN_SKU' } });
    expect(answer.payload.reason).toContain(unknown);
  });

  it('when a reserved order is cancelled, then its stock is released, the reservation is RELEASED, its points reversal is written and StockReleased follows StockReserved', async () => {
    const before = await stockOf(APPLE);
    const order = orderCreated([{ sku: APPLE, quantity: 2 }]);
    const created = eventRecord(Topics.orders, 'OrderCreated', order);
    const cancel = eventRecord(Topics.orders, 'OrderCancelled', cancelled(order.orderId));
    await publish([created, cancel]);
    await processed(cancel.headers![Headers.messageId]);

    expect(await stockOf(APPLE)).toEqual(before);
    expect(await sql('SELECT status FROM reservations WHERE order_id = $1', [order.orderId])).toEqual([{ status: 'RELEASED' }]);
    expect((await answersFor(order.orderId)).map((answer) => answer.message_type)).toEqual(['StockReserved', 'StockReleased']);
    // The compensation, committed with the release: the accrual's points (2 x 250 cents), under the reversal's own key.
    const accrued = { customerId: order.customerId, orderId: order.orderId, points: 5 };
    expect(await sql('SELECT id, path, body, status FROM loyalty_commands WHERE order_id = $1 ORDER BY id', [order.orderId])).toEqual([
      { id: `loyalty-accrual:${order.orderId}`, path: '/accruals', body: accrued, status: 'PENDING' },
      { id: `loyalty-reversal:${order.orderId}`, path: '/reversals', body: accrued, status: 'PENDING' },
    ]);
  });

  it('when a rejected order is cancelled, then nothing is released and nothing is announced', async () => {
    const before = await stockOf(PEAR);
    const order = orderCreated([{ sku: PEAR, quantity: 1000 }]);
    const cancel = eventRecord(Topics.orders, 'OrderCancelled', cancelled(order.orderId));
    await publish([eventRecord(Topics.orders, 'OrderCreated', order), cancel]);
    await processed(cancel.headers![Headers.messageId]);

    expect(await stockOf(PEAR)).toEqual(before);
    expect((await answersFor(order.orderId)).map((answer) => answer.message_type)).toEqual(['StockRejected']);
    // Nothing was credited, so nothing is reversed.
    expect(await sql('SELECT id FROM loyalty_commands WHERE order_id = $1', [order.orderId])).toEqual([]);
  });

  it('when OrderCancelled arrives before its OrderCreated (a replayed dead letter), then the cancel is remembered and the late OrderCreated reserves nothing: StockRejected ORDER_CANCELLED', async () => {
    const before = await stockOf(APPLE);
    const order = orderCreated([{ sku: APPLE, quantity: 2 }]);
    const cancel = eventRecord(Topics.orders, 'OrderCancelled', cancelled(order.orderId));
    await publish([cancel]);
    await processed(cancel.headers![Headers.messageId]);
    expect(await sql('SELECT cancel_message_id FROM cancelled_orders WHERE order_id = $1', [order.orderId])).toEqual([
      { cancel_message_id: cancel.headers![Headers.messageId] },
    ]);

    const created = eventRecord(Topics.orders, 'OrderCreated', order);
    await publish([created]);
    await processed(created.headers![Headers.messageId]);

    expect(await stockOf(APPLE)).toEqual(before);
    expect(await sql('SELECT 1 FROM reservations WHERE order_id = $1', [order.orderId])).toEqual([]);
    expect(await sql('SELECT 1 FROM loyalty_commands WHERE order_id = $1', [order.orderId])).toEqual([]);
    const answers = await answersFor(order.orderId);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      message_type: 'StockRejected',
      payload: { orderId: order.orderId, reasonCode: 'INVENTORY.ORDER_CANCELLED' },
    });
  });

  it("when a cancel names another customer than the order's, then nothing is released, reversed or announced", async () => {
    const before = await stockOf(APPLE);
    const order = orderCreated([{ sku: APPLE, quantity: 2 }]);
    const created = eventRecord(Topics.orders, 'OrderCreated', order);
    const foreign = eventRecord(Topics.orders, 'OrderCancelled', { ...cancelled(order.orderId), customerId: `someone-else-${run}` });
    await publish([created, foreign]);
    await processed(foreign.headers![Headers.messageId]);

    expect(await stockOf(APPLE)).toEqual({ available: before.available - 2, reserved: before.reserved + 2 });
    expect(await sql('SELECT status FROM reservations WHERE order_id = $1', [order.orderId])).toEqual([{ status: 'RESERVED' }]);
    expect((await answersFor(order.orderId)).map((answer) => answer.message_type)).toEqual(['StockReserved']);
    expect(await sql('SELECT id FROM loyalty_commands WHERE order_id = $1', [order.orderId])).toEqual([
      { id: `loyalty-accrual:${order.orderId}` },
    ]);

    // The real customer's cancel still applies.
    const own = eventRecord(Topics.orders, 'OrderCancelled', cancelled(order.orderId));
    await publish([own]);
    await processed(own.headers![Headers.messageId]);
    expect(await stockOf(APPLE)).toEqual(before);
    expect((await answersFor(order.orderId)).map((answer) => answer.message_type)).toEqual(['StockReserved', 'StockReleased']);
  });

  it('when cancels arrive before their OrderCreated, then the late order is cancelled only if one of them named its customer', async () => {
    const before = await stockOf(APPLE);
    const foreignOnly = orderCreated([{ sku: APPLE, quantity: 1 }]);
    const both = orderCreated([{ sku: APPLE, quantity: 1 }]);
    const foreign = (orderId: string) =>
      eventRecord(Topics.orders, 'OrderCancelled', { ...cancelled(orderId), customerId: `someone-else-${run}` });
    const own = eventRecord(Topics.orders, 'OrderCancelled', cancelled(both.orderId));
    // For `both`, the foreign cancel comes first: it must not hide the real one behind it.
    const early = [foreign(foreignOnly.orderId), foreign(both.orderId), own];
    await publish(early);
    for (const record of early) await processed(record.headers![Headers.messageId]);

    const created = [eventRecord(Topics.orders, 'OrderCreated', foreignOnly), eventRecord(Topics.orders, 'OrderCreated', both)];
    await publish(created);
    for (const record of created) await processed(record.headers![Headers.messageId]);

    expect((await answersFor(foreignOnly.orderId)).map((answer) => answer.message_type)).toEqual(['StockReserved']);
    const [rejected] = await answersFor(both.orderId);
    expect(rejected).toMatchObject({ message_type: 'StockRejected', payload: { reasonCode: 'INVENTORY.ORDER_CANCELLED' } });
    expect(await stockOf(APPLE)).toEqual({ available: before.available - 1, reserved: before.reserved + 1 });
    expect(await sql('SELECT customer_ids FROM cancelled_orders WHERE order_id = $1', [both.orderId])).toEqual([
      { customer_ids: [`someone-else-${run}`, both.customerId] },
    ]);
  });

  it('when the same record is published twice, then one reservation, one loyalty command, one answer, and inbox_duplicates_total counts one', async () => {
    const before = await stockOf(APPLE);
    const duplicates = await MetricBaseline.take(inventory.baseUrl, 'inbox_duplicates_total', { consumer: CONSUMER });
    const order = orderCreated([{ sku: APPLE, quantity: 1 }]);
    const record = eventRecord(Topics.orders, 'OrderCreated', order);
    await publish([record, record]);
    await processed(record.headers![Headers.messageId]);
    await duplicates.waitForIncrease({ description: 'the second copy to be skipped as a duplicate' });

    expect(await duplicates.increase()).toBe(1);
    expect(await stockOf(APPLE)).toEqual({ available: before.available - 1, reserved: before.reserved + 1 });
    expect(await sql('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [order.orderId])).toEqual([{ n: 1 }]);
    expect(await sql('SELECT count(*)::int AS n FROM loyalty_commands WHERE order_id = $1', [order.orderId])).toEqual([{ n: 1 }]);
    expect(await answersFor(order.orderId)).toHaveLength(1);
  });

  it('when invalid records precede a valid one on a partition, then each is dead-lettered at once with its reason and the valid one is processed', async () => {
    const first = orderCreated([{ sku: APPLE, quantity: 1 }]);
    const original = eventRecord(Topics.orders, 'OrderCreated', first);
    await publish([original]);
    await processed(original.headers![Headers.messageId]);

    // All keyed like the valid order, so all land on its partition, in this order, before it.
    const next = orderCreated([{ sku: APPLE, quantity: 1 }]);
    const key = next.orderId;
    const valid = eventRecord(Topics.orders, 'OrderCreated', next);
    const withHeaders = (changes: Record<string, string | undefined>): RawRecord => {
      const base = eventRecord(Topics.orders, 'OrderCreated', orderCreated([{ sku: APPLE, quantity: 1 }]), { key });
      const headers = { ...base.headers };
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined) delete headers[name];
        else headers[name] = value;
      }
      return { ...base, headers };
    };
    const poison: [string, string, RawRecord][] = [
      ['NOT_JSON', '0', { ...withHeaders({}), value: 'order #42, 3 apples please' }],
      ['MISSING_MESSAGE_ID', '0', withHeaders({ [Headers.messageId]: undefined })],
      ['UNKNOWN_TYPE', '0', withHeaders({ [Headers.messageType]: 'OrderShipped' })],
      ['UNSUPPORTED_SCHEMA_VERSION', '0', withHeaders({ [Headers.schemaVersion]: '2' })],
      [
        'SCHEMA_VIOLATION',
        '0',
        {
          ...withHeaders({}),
          value: JSON.stringify({
            ...orderCreated([{ sku: APPLE, quantity: 1 }]),
            items: [{ sku: APPLE, quantity: 0, unitPriceCents: 1 }],
          }),
        },
      ],
      [
        'PAYLOAD_MISMATCH',
        '1',
        eventRecord(
          Topics.orders,
          'OrderCreated',
          { ...first, customerId: `${first.customerId}-impostor` },
          { messageId: original.headers![Headers.messageId] },
        ),
      ],
    ];
    const deadBefore = Object.fromEntries(
      await Promise.all(poison.map(async ([reason]) => [reason, await metric('inbox_dead_lettered_total', { reason })])),
    );
    // One partition by choice, not by a shared key: a record keyed unlike its payload's order is refused as AGGREGATE_MISMATCH.
    const positions = await publish([...poison.map(([, , record]) => record), valid].map((record) => ({ ...record, partition: 0 })));
    expect(new Set(positions.map((position) => position.partition)).size).toBe(1);

    await processed(valid.headers![Headers.messageId]);
    expect(await sql('SELECT status FROM reservations WHERE order_id = $1', [next.orderId])).toEqual([{ status: 'RESERVED' }]);
    for (const [index, [reason, attempts, record]] of poison.entries()) {
      const letter = await deadLetterOf(positions[index]);
      expect({ reason, headers: letter.headers }).toMatchObject({
        reason,
        headers: {
          [DeadLetterHeaders.reason]: reason,
          [DeadLetterHeaders.attempts]: attempts,
          [DeadLetterHeaders.consumer]: CONSUMER,
          [DeadLetterHeaders.originalTopic]: Topics.orders,
        },
      });
      expect(letter.headers[DeadLetterHeaders.error]).toBeTruthy();
      expect(letter.key).toBe(record.key);
      // The original value travels unchanged (parsed here when it is JSON, compared as text when not).
      expect(letter.value ?? letter.text).toEqual(reason === 'NOT_JSON' ? record.value : JSON.parse(String(record.value)));
      expect((await metric('inbox_dead_lettered_total', { reason })) - deadBefore[reason]).toBe(1);
    }
    // The impostor changed nothing: the first order's reservation and stock stand as they were.
    expect(await sql('SELECT count(*)::int AS n FROM reservations WHERE order_id = $1', [first.orderId])).toEqual([{ n: 1 }]);
  });

  it(`when a handler keeps failing, then it is tried ${MAX_ATTEMPTS} times, dead-lettered as HANDLER_FAILED, and the next record on the partition is processed`, async () => {
    const before = await stockOf(APPLE);
    const order = orderCreated([{ sku: APPLE, quantity: 1 }]);
    const original = eventRecord(Topics.orders, 'OrderCreated', order);
    // A second OrderCreated for the same order under a new message id (a producer bug): the inbox
    // lets it through, the reservations primary key refuses it, on every attempt.
    const second = eventRecord(Topics.orders, 'OrderCreated', order);
    const after = orderCreated([{ sku: APPLE, quantity: 1 }]);
    const follower = eventRecord(Topics.orders, 'OrderCreated', after);
    // One partition by choice: keyed by another order, the follower would be refused as AGGREGATE_MISMATCH.
    const positions = await publish([original, second, follower].map((record) => ({ ...record, partition: 0 })));
    await processed(follower.headers![Headers.messageId]);

    const letter = await deadLetterOf(positions[1]);
    expect(letter.headers).toMatchObject({
      [Headers.messageId]: second.headers![Headers.messageId],
      [DeadLetterHeaders.reason]: 'HANDLER_FAILED',
      [DeadLetterHeaders.attempts]: String(MAX_ATTEMPTS),
      [DeadLetterHeaders.consumer]: CONSUMER,
      [DeadLetterHeaders.originalTopic]: Topics.orders,
      [DeadLetterHeaders.originalPartition]: String(positions[1].partition),
      [DeadLetterHeaders.originalOffset]: String(positions[1].offset),
    });
    expect(letter.headers[DeadLetterHeaders.error]).toMatch(/duplicate key|reservations_pkey/);
    expect(
      inventory.process.logs.match(new RegExp(`attempt \\d for OrderCreated ${second.headers![Headers.messageId]} failed`, 'g')),
    ).toHaveLength(MAX_ATTEMPTS);
    // Reserved once for the order, once for the follower; the failed copy left nothing behind.
    expect(await stockOf(APPLE)).toEqual({ available: before.available - 2, reserved: before.reserved + 2 });
    expect(await sql('SELECT status FROM reservations WHERE order_id = $1', [after.orderId])).toEqual([{ status: 'RESERVED' }]);
    expect(await sql('SELECT 1 FROM inbox_messages WHERE message_id = $1', [second.headers![Headers.messageId]])).toEqual([]);
  });
});
