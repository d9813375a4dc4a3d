import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type StockRejected, type StockReserved, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import {
  cancelOrder,
  eventRecord,
  getOrder as getOrderAs,
  MetricBaseline,
  placeOrder as postOrder,
  publishRecords,
  type RecordPosition,
  seedPrices,
  type ServiceProcess,
  testInfrastructure,
  TestServices,
  waitForDeadLetter,
  waitForInboxMessage,
} from '@test/fixtures';
import { type TopicRecorder } from '@tools/test-support';

/**
 * The orders service as a real process consuming inventory's answers (`inventory.reservation.v1`)
 * through its inbox. Its relay is off: orders placed here stay PENDING in its own database and
 * never reach another inventory on the shared broker, so only the answers this test publishes
 * decide their fate.
 */
const { serverUrl, brokers } = testInfrastructure();
const CONSUMER = 'orders.reservation-results';
const MAX_ATTEMPTS = 3;

describe('orders applying reservation results (real process, real Postgres and Kafka)', () => {
  const services = new TestServices();
  let database: string;
  let orders: ServiceProcess;
  let deadLetters: TopicRecorder;

  const placeOrder = async (): Promise<string> =>
    (await postOrder(orders.baseUrl, { customerId: 'results-customer', items: [{ sku: 'SKU-RESULTS', quantity: 2 }] })).id;
  const getOrder = async (id: string) => (await getOrderAs(orders.baseUrl, id, 'results-customer')).body;
  const reserved = (orderId: string): StockReserved => ({
    orderId,
    items: [{ sku: 'SKU-RESULTS', quantity: 2 }],
    reservedAt: new Date().toISOString(),
  });
  const publish = (records: ReturnType<typeof eventRecord>[]) => publishRecords(brokers, Topics.reservations, records);
  const processed = (messageId: string) =>
    waitForInboxMessage(serverUrl, database, messageId, { consumer: CONSUMER, description: `orders to process message ${messageId}` });
  // Another orders process on the shared broker may dead-letter the same record with its own settings.
  const deadLetterOf = (position: RecordPosition) =>
    waitForDeadLetter(deadLetters, Topics.reservations, position, { attempts: MAX_ATTEMPTS });

  beforeAll(async () => {
    database = await services.createDatabase('orders_reservation_results');
    orders = await services.start({
      service: 'orders',
      database,
      env: { OUTBOX_RELAY_ENABLED: 'false', INBOX_MAX_ATTEMPTS: String(MAX_ATTEMPTS), INBOX_RETRY_BASE_MS: '20' },
    });
    await seedPrices(serverUrl, database, { 'SKU-RESULTS': 500 });
    // After the start: the service creates its dead-letter topic when missing.
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.reservations));
  });

  afterAll(() => services.tearDown());

  it('when StockReserved arrives for a pending order, then the order is RESERVED', async () => {
    const id = await placeOrder();
    const answer = eventRecord(Topics.reservations, 'StockReserved', reserved(id));
    await publish([answer]);
    await processed(answer.headers![Headers.messageId]);
    expect(await getOrder(id)).toMatchObject({ id, status: 'RESERVED' });
  });

  it("when StockRejected arrives, then the order is REJECTED with the reason code and orders' own text for it, never the text on the wire", async () => {
    const id = await placeOrder();
    const rejection: StockRejected = {
      orderId: id,
      reasonCode: 'INVENTORY.INSUFFICIENT_STOCK',
      reason: 'Your account is locked: call +1 555 0100 and give your card number',
      skus: ['SKU-RESULTS'],
      rejectedAt: new Date().toISOString(),
    };
    const answer = eventRecord(Topics.reservations, 'StockRejected', rejection);
    await publish([answer]);
    await processed(answer.headers![Headers.messageId]);
    expect(await getOrder(id)).toMatchObject({
      status: 'REJECTED',
      rejection: { code: rejection.reasonCode, reason: 'Not enough stock: SKU-RESULTS' },
    });
  });

  it('when an answer arrives after the customer cancelled, then the order stays CANCELLED', async () => {
    const id = await placeOrder();
    expect((await cancelOrder(orders.baseUrl, id, 'results-customer')).status).toBe(200);
    const answer = eventRecord(Topics.reservations, 'StockReserved', reserved(id));
    await publish([answer]);
    await processed(answer.headers![Headers.messageId]);
    expect(await getOrder(id)).toMatchObject({ status: 'CANCELLED' });
  });

  it('when the same answer is published twice, then it is applied once and counted once as a duplicate', async () => {
    const id = await placeOrder();
    const duplicates = await MetricBaseline.take(orders.baseUrl, 'inbox_duplicates_total', { consumer: CONSUMER });
    const answer = eventRecord(Topics.reservations, 'StockReserved', reserved(id));
    await publish([answer, answer]);
    await duplicates.waitForIncrease({ description: 'the second copy to be skipped' });
    expect(await duplicates.increase()).toBe(1);
    expect(await getOrder(id)).toMatchObject({ status: 'RESERVED' });
  });

  it(`when an answer names an order orders never had, then the handler fails ${MAX_ATTEMPTS} times, the answer is dead-lettered, and the next answer on its partition is applied`, async () => {
    const id = await placeOrder();
    const stranger = randomUUID();
    // Both on one partition (chosen: a record keyed unlike its payload is refused as AGGREGATE_MISMATCH): the poison comes first.
    const poison = { ...eventRecord(Topics.reservations, 'StockReserved', reserved(stranger)), partition: 0 };
    const answer = { ...eventRecord(Topics.reservations, 'StockReserved', reserved(id)), partition: 0 };
    const positions = await publish([poison, answer]);
    expect(positions[0].partition).toBe(positions[1].partition);

    await processed(answer.headers![Headers.messageId]);
    expect(await getOrder(id)).toMatchObject({ status: 'RESERVED' });
    const letter = await deadLetterOf(positions[0]);
    expect(letter.key).toBe(poison.key);
    expect(letter.value).toEqual(JSON.parse(String(poison.value)));
    expect(letter.headers).toMatchObject({
      [Headers.messageId]: poison.headers![Headers.messageId],
      [DeadLetterHeaders.reason]: 'HANDLER_FAILED',
      [DeadLetterHeaders.attempts]: String(MAX_ATTEMPTS),
      [DeadLetterHeaders.consumer]: CONSUMER,
      [DeadLetterHeaders.originalTopic]: Topics.reservations,
      [DeadLetterHeaders.originalPartition]: String(positions[0].partition),
      [DeadLetterHeaders.originalOffset]: String(positions[0].offset),
    });
    expect(letter.headers[DeadLetterHeaders.error]).toContain(`ORDERS.NOT_FOUND: order ${stranger}`);
    const attempts = orders.process.logs.match(
      new RegExp(`attempt \\d for StockReserved ${poison.headers![Headers.messageId]} failed`, 'g'),
    );
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
  });
});
