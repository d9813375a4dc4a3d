import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { placeOrder, seedPrices, testInfrastructure, TestServices } from '@test/fixtures';
import { type ServiceProcess, type TopicRecorder } from '@tools/local-stack';

/** Far below the 60 s poll interval: only a LISTEN/NOTIFY wake-up can beat it. */
const WAKE_UP_DEADLINE_MS = 10_000;

const order = { customerId: 'listen-wakeup', items: [{ sku: 'SKU-LISTEN', quantity: 1 }] };

describe('relay wake-up by LISTEN/NOTIFY (real orders process)', () => {
  const services = new TestServices();
  let orders: ServiceProcess;
  let recorder: TopicRecorder;

  beforeAll(async () => {
    const database = await services.createDatabase('outbox_listen');
    orders = await services.start({ service: 'orders', name: 'orders-listen', database, env: { OUTBOX_POLL_INTERVAL_MS: '60000' } });
    await seedPrices(testInfrastructure().serverUrl, database, { 'SKU-LISTEN': 100 });
    recorder = await services.recordTopic(Topics.orders);
  });

  afterAll(() => services.tearDown());

  it('when the poll interval is 60 s, then each new order still reaches Kafka within seconds', async () => {
    // Twice: the second proves the listener keeps waking the relay, not only once after start-up.
    for (let round = 1; round <= 2; round += 1) {
      const created = await placeOrder(orders.baseUrl, order);
      const startedAt = Date.now();
      const [message] = await recorder.waitForKey(created.id, {
        timeoutMs: WAKE_UP_DEADLINE_MS,
        description: `OrderCreated of ${created.id} (round ${round}) on ${Topics.orders}`,
      });
      expect(message.headers[Headers.messageType]).toBe('OrderCreated');
      expect(Date.now() - startedAt).toBeLessThan(WAKE_UP_DEADLINE_MS);
    }
  });
});
