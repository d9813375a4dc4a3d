import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import {
  DeadLetterHeaders,
  deadLetterTopic,
  Headers,
  messageSigning,
  newSigningKeyPair,
  signatureHeaders,
  type SigningKey,
} from '@libs/envelope';
import {
  eventRecord,
  orderCreatedPayload,
  publishRecords,
  type RawRecord,
  serviceSigningKey,
  setStock,
  testInfrastructure,
  TestServices,
  waitForDeadLetter,
} from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, type TopicRecorder, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';

/**
 * Anyone who can produce to a topic could forge an `OrderCreated`, or suppress a
 * real one by sending its message id first on another partition (the forgery claimed the id, the
 * real record was then dead-lettered as a payload mismatch), or a compromised inventory could sign
 * one with its own key. Inventory verifies with public keys only and accepts an `OrderCreated` only
 * when signed by a key of orders, its declared producer: it refuses each forgery before it claims
 * anything, so the real record that follows is applied.
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('FORGED');
const STOCK = 20;
/** What orders' relay signs with in this run: the genuine records. */
const ordersKey = serviceSigningKey('orders');
/** A compromised inventory's own, valid key: a producer, but not of `OrderCreated`. */
const inventoryKey = serviceSigningKey('inventory');
/** A key a forger made under orders' key id (ids are not secret). */
const guessedKey = messageSigning({
  MESSAGE_SIGNING_KEY: `${ordersKey.id}:${newSigningKeyPair(ordersKey.id).privateKey}`,
  MESSAGE_SIGNING_DISABLED: false,
  NODE_ENV: 'test',
}).signWith!;

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
        // No loyalty here: its commands stay pending, which this test does not look at.
        LOYALTY_BASE_URL: 'http://127.0.0.1:9',
        OUTBOX_RELAY_ENABLED: 'false',
      },
    });
    await setStock(inventory.baseUrl, SKU, STOCK);
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.orders));
  });

  afterAll(() => services.tearDown());

  it("when inventory gets forgeries with the real message id first (unsigned, signed with inventory's own key, with a guessed key), then each is dead-lettered without claiming the id, and the real record is applied", async () => {
    const real = signed(
      eventRecord(
        Topics.orders,
        'OrderCreated',
        orderCreatedPayload(uniqueName('forged-customer'), [{ sku: SKU, quantity: 2, unitPriceCents: 100 }]),
      ),
      ordersKey,
    );
    const messageId = real.headers![Headers.messageId];
    const order = JSON.parse(String(real.value));
    // Same id, same key and order id, a consistent but larger order: what a forger would send.
    const forgedPayload = orderCreatedPayload(order.customerId, [{ sku: SKU, quantity: 9, unitPriceCents: 100 }], order.orderId);
    const unsigned = { ...eventRecord(Topics.orders, 'OrderCreated', forgedPayload, { messageId, signWith: false }), partition: 1 };
    const byInventory = { ...signed(unsigned, inventoryKey), partition: 2 };
    const guessed = { ...signed(unsigned, guessedKey), partition: 2 };

    const positions = await publishRecords(brokers, Topics.orders, [unsigned, byInventory, guessed]);
    expect(positions.map((position) => position.partition)).toEqual([1, 2, 2]);
    const errors: string[] = [];
    for (const position of positions) {
      const letter = await waitForDeadLetter(deadLetters, Topics.orders, position, { timeoutMs: 60_000 });
      expect(letter.headers[DeadLetterHeaders.reason]).toBe('SIGNATURE_INVALID');
      errors.push(letter.headers[DeadLetterHeaders.error] ?? '');
    }
    expect(errors).toEqual([
      expect.stringMatching(/^unsigned/),
      // inventory holds no public key of its own: only those of the producers it consumes from.
      `signed with key id "${inventoryKey.id}", which is not a configured key of orders (OrderCreated is produced by orders only)`,
      'signature does not match the envelope',
    ]);
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
