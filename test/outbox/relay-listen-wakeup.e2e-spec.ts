import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Headers, Topics } from '@app/contracts';
import {
  createTestDatabase,
  dropTestDatabase,
  localEnvironment,
  requestJson,
  ServiceProcess,
  TopicRecorder,
  topicEndOffsets,
} from '@app/testing';

const env = localEnvironment();
const serverUrl = env.DATABASE_URL!;
const brokers = env.KAFKA_BROKERS!.split(',');

/** Far below the 60 s poll interval: only a LISTEN/NOTIFY wake-up can beat it. */
const WAKE_UP_DEADLINE_MS = 10_000;

const order = { customerId: 'listen-wakeup', items: [{ sku: 'SKU-LISTEN', quantity: 1, unitPriceCents: 100 }] };

describe('relay wake-up by LISTEN/NOTIFY (real orders process)', () => {
  let database: string;
  let orders: ServiceProcess | undefined;
  let recorder: TopicRecorder | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_listen');
    orders = await ServiceProcess.start({
      service: 'orders',
      name: 'orders-listen',
      serverUrl,
      database,
      brokers,
      env: { OUTBOX_POLL_INTERVAL_MS: '60000' },
    });
    recorder = await TopicRecorder.start({ brokers, topic: Topics.orders, from: await topicEndOffsets(brokers, Topics.orders) });
  });

  afterAll(async () => {
    await recorder?.stop();
    await orders?.stop();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when the poll interval is 60 s, then each new order still reaches Kafka within seconds', async () => {
    // Twice: the second proves the listener keeps waking the relay, not only once after start-up.
    for (let round = 1; round <= 2; round += 1) {
      const created = await requestJson('POST', `${orders!.baseUrl}/orders`, { body: order });
      expect(created.status).toBe(201);
      const startedAt = Date.now();
      const [message] = (
        await recorder!.waitUntil((messages) => messages.some((m) => m.key === created.body.id), {
          timeoutMs: WAKE_UP_DEADLINE_MS,
          description: `OrderCreated of ${created.body.id} (round ${round}) on ${Topics.orders}`,
        })
      ).filter((m) => m.key === created.body.id);
      expect(message.headers[Headers.messageType]).toBe('OrderCreated');
      expect(Date.now() - startedAt).toBeLessThan(WAKE_UP_DEADLINE_MS);
    }
  });
});
