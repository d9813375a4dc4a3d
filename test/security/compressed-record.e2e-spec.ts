import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import kafkajs from 'kafkajs';
import { Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic } from '@libs/envelope';
import { createKafka } from '@libs/kafka';
import {
  eventRecord,
  getOrder,
  orderCreatedPayload,
  placeOrder,
  PrivateKafka,
  type RecordPosition,
  seedPrices,
  setStock,
  testInfrastructure,
  TestServices,
  waitForDeadLetter,
} from '@test/fixtures';
import {
  type KafkaPrincipal,
  kafkaSaslSecurity,
  localKafkaCredentials,
  requestJson,
  type ServiceProcess,
  TopicRecorder,
  topicEndOffsets,
  uniqueName,
  uniqueSku,
  waitFor,
} from '@tools/local-stack';
import { FAST_LOYALTY_DISPATCH } from '../support/inventory-with-loyalty.js';

/**
 * One JSON record of 40 MB, gzipped to a few dozen KB and produced by a principal allowed to write
 * the topic, must not end its consumer (the apps run with --max-old-space-size=128): the inflation
 * cap is derived from the heap, so the record is dead-lettered unparsed as INFLATION_LIMIT and the
 * partition goes on. Runs on a private broker: a consumer of the shared broker built with a larger
 * cap (another worktree's test) would die on the record.
 */
const { serverUrl } = testInfrastructure();
const SKU = uniqueSku('INFLATE');
const RECORD_BYTES = 40 * 1000 * 1000;

/** An OrderCreated whose lines fill `RECORD_BYTES` of JSON: small objects, the costliest shape to parse. */
function hugeOrderCreated(): { key: string; value: string; headers: Record<string, string> } {
  const payload = orderCreatedPayload(uniqueName('inflate-attacker'), [{ sku: SKU, quantity: 1, unitPriceCents: 1 }]);
  const line = JSON.stringify(payload.items[0]);
  const items = `[${Array.from({ length: Math.ceil(RECORD_BYTES / (line.length + 1)) }, () => line).join(',')}]`;
  const record = eventRecord(Topics.orders, 'OrderCreated', payload, { signWith: false });
  const value = JSON.stringify({ ...payload, items: '@' }).replace('"@"', items);
  return { key: record.key!, value, headers: record.headers! };
}

describe('a compressed record that inflates past the heap (orders, inventory, loyalty on a private broker)', () => {
  const services = new TestServices();
  let kafka: PrivateKafka | undefined;
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let ordersDatabase: string;

  /** Produces `record` gzip-compressed to `topic` as `principal`, which the broker's ACLs let write it. */
  async function produceCompressed(
    principal: KafkaPrincipal,
    topic: string,
    record: ReturnType<typeof hugeOrderCreated>,
  ): Promise<RecordPosition> {
    const client = createKafka({
      brokers: kafka!.brokers,
      clientId: uniqueName('inflate'),
      security: kafkaSaslSecurity(localKafkaCredentials(), principal),
    });
    const producer = client.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      const [metadata] = await producer.send({ topic, acks: -1, compression: kafkajs.CompressionTypes.GZIP, messages: [record] });
      return { partition: metadata.partition, offset: Number(metadata.baseOffset) };
    } finally {
      await producer.disconnect();
    }
  }

  async function recordTopic(topic: string): Promise<TopicRecorder> {
    const brokers = kafka!.brokers;
    return services.adopt(await TopicRecorder.start({ brokers, topic, from: await topicEndOffsets(brokers, topic) }));
  }

  async function expectHealthy(service: ServiceProcess): Promise<void> {
    expect(service.process.isRunning).toBe(true);
    expect((await requestJson('GET', `${service.baseUrl}/health`, { timeoutMs: 5000 })).status).toBe(200);
  }

  beforeAll(async () => {
    kafka = await PrivateKafka.start();
    const brokers = kafka.brokers;
    const loyaltyDatabase = await services.createDatabase('inflate_loyalty');
    const inventoryDatabase = await services.createDatabase('inflate_inventory');
    ordersDatabase = await services.createDatabase('inflate_orders');
    const loyalty = await services.start({ service: 'loyalty', database: loyaltyDatabase, brokers });
    inventory = await services.start({
      service: 'inventory',
      database: inventoryDatabase,
      brokers,
      env: { LOYALTY_BASE_URL: loyalty.baseUrl, ...FAST_LOYALTY_DISPATCH },
    });
    orders = await services.start({ service: 'orders', database: ordersDatabase, brokers });
    await setStock(inventory.baseUrl, SKU, 10);
    await seedPrices(serverUrl, ordersDatabase, { [SKU]: 100 });
  }, 240_000);

  afterAll(async () => {
    await services.tearDown();
    await kafka?.destroy();
  });

  it.each<[string, KafkaPrincipal, string, () => ServiceProcess]>([
    ['inventory', 'ops', Topics.orders, () => inventory],
    ['orders', 'inventory', Topics.reservations, () => orders],
  ])(
    'when a gzipped 40 MB record reaches %s (produced by %s), then it is dead-lettered as INFLATION_LIMIT, the consumer stays up and a later order completes',
    async (_consumer, principal, topic, consumer) => {
      const letters = await recordTopic(deadLetterTopic(topic));
      const record = hugeOrderCreated();
      expect(record.value.length).toBeGreaterThanOrEqual(RECORD_BYTES);
      const position = await produceCompressed(principal, topic, record);

      const letter = await waitForDeadLetter(letters, topic, position, { timeoutMs: 60_000 });
      expect(letter.headers[DeadLetterHeaders.reason]).toBe('INFLATION_LIMIT');
      expect(letter.headers[DeadLetterHeaders.error]).toMatch(/inflate past the limit of \d+ bytes/);
      await expectHealthy(consumer());

      const customerId = uniqueName('inflate-customer');
      const order = await placeOrder(orders.baseUrl, { customerId, items: [{ sku: SKU, quantity: 1 }] });
      await waitFor(async () => (await getOrder(orders.baseUrl, order.id, customerId)).body.status === 'RESERVED', {
        timeoutMs: 60_000,
        description: `order ${order.id}, placed after the record, to be RESERVED`,
      });
      await expectHealthy(orders);
      await expectHealthy(inventory);
    },
    180_000,
  );
});
