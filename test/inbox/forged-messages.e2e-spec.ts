import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers, signatureHeaders, type SigningKey } from '@libs/envelope';
import {
  eventRecord,
  orderCreatedPayload,
  publishRecords,
  type RawRecord,
  setStock,
  testInfrastructure,
  TestServices,
  waitForDeadLetter,
} from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, type TopicRecorder, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';

/**
 * Anyone who can produce to a topic could forge an `OrderCreated`, or suppress a
 * real one by sending its message id first on another partition (the forgery claimed the id, the
 * real record was then dead-lettered as a payload mismatch). With signing keys configured, the
 * real inventory process refuses the forgery before it claims anything, so the real record that
 * follows is applied.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('FORGED');
const STOCK = 20;
const key: SigningKey = { id: 'test-key-1', secret: randomBytes(32) };

/** `record` signed with `signer` as the relay would sign it. */
function signed(record: RawRecord, signer: SigningKey): RawRecord {
  const headers = record.headers!;
  const parts = { topic: Topics.orders, key: record.key, headers, payload: JSON.parse(String(record.value)) };
  return { ...record, headers: { ...headers, ...signatureHeaders(parts, signer) } };
}

describe('forged order events (real inventory process, signatures required)', () => {
  const services = new TestServices();
  let inventory: ServiceProcess;
  let database: string;
  let deadLetters: TopicRecorder;

  beforeAll(async () => {
    database = await services.createDatabase('forged_inventory');
    inventory = await services.start({
      service: 'inventory',
      database,
      env: {
        MESSAGE_SIGNING_KEYS: `${key.id}:${key.secret.toString('base64')}`,
        MESSAGE_SIGNING_KEY_ID: key.id,
        // No loyalty here: its commands stay pending, which this test does not look at.
        LOYALTY_BASE_URL: 'http://127.0.0.1:9',
        OUTBOX_RELAY_ENABLED: 'false',
      },
    });
    await setStock(inventory.baseUrl, SKU, STOCK);
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
  });

  afterAll(() => services.tearDown());

  it('when a forgery with the real message id arrives first on another partition, then it is dead-lettered without claiming the id, and the real record is applied', async () => {
    const real = signed(
      eventRecord(
        Topics.orders,
        'OrderCreated',
        orderCreatedPayload(uniqueName('forged-customer'), [{ sku: SKU, quantity: 2, unitPriceCents: 100 }]),
      ),
      key,
    );
    const messageId = real.headers![Headers.messageId];
    const order = JSON.parse(String(real.value));
    // Same id, same key and order id, a consistent but larger order: what a forger would send.
    const forgedPayload = orderCreatedPayload(order.customerId, [{ sku: SKU, quantity: 9, unitPriceCents: 100 }], order.orderId);
    const unsigned = { ...eventRecord(Topics.orders, 'OrderCreated', forgedPayload, { messageId, signWith: false }), partition: 1 };
    const guessedKey = { ...signed(unsigned, { id: key.id, secret: randomBytes(32) }), partition: 2 };

    const [unsignedAt, guessedAt] = await publishRecords(brokers, Topics.orders, [unsigned, guessedKey]);
    expect([unsignedAt.partition, guessedAt.partition]).toEqual([1, 2]);
    for (const position of [unsignedAt, guessedAt]) {
      const letter = await waitForDeadLetter(deadLetters, Topics.orders, position, { timeoutMs: 60_000 });
      expect(letter.headers[DeadLetterHeaders.reason]).toBe('SIGNATURE_INVALID');
    }
    expect(await queryTestDatabase(serverUrl, database, 'SELECT 1 FROM inbox_messages WHERE message_id = $1', [messageId])).toEqual([]);

    const [realAt] = await publishRecords(brokers, Topics.orders, [{ ...real, partition: 0 }]);
    await waitFor(
      async () =>
        (await queryTestDatabase(serverUrl, database, 'SELECT 1 FROM reservations WHERE order_id = $1', [order.orderId])).length > 0,
      {
        timeoutMs: 60_000,
        description: `the real order ${order.orderId} to be reserved`,
      },
    );
    const [stock] = await queryTestDatabase(serverUrl, database, 'SELECT available, reserved FROM stock_items WHERE sku = $1', [SKU]);
    expect(stock).toEqual({ available: STOCK - 2, reserved: 2 });
    const [claim] = await queryTestDatabase(serverUrl, database, 'SELECT partition FROM inbox_messages WHERE message_id = $1', [messageId]);
    expect(claim).toEqual({ partition: realAt.partition });
  }, 180_000);
});
