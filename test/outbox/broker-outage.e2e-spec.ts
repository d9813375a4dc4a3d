import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { countRows, customerToken, placeOrderPayload, PrivateKafka, seedPrices, testInfrastructure, TestServices } from '@test/fixtures';
import {
  queryTestDatabase,
  readTopicUntil,
  requestJson,
  type ServiceProcess,
  topicEndOffsets,
  type TopicOffsets,
  waitFor,
} from '@tools/local-stack';

const { serverUrl } = testInfrastructure();
const ORDERS_DURING_OUTAGE = 25;

const order = (n: number) => ({
  customerId: `outage-${n}`,
  items: [{ sku: 'SKU-OUTAGE', quantity: 1 + (n % 5) }],
});

const pendingRows = async (database: string) =>
  (
    await queryTestDatabase<{ n: number; tried: number }>(
      serverUrl,
      database,
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE attempts > 0 AND last_error IS NOT NULL)::int AS tried FROM outbox_messages WHERE published_at IS NULL',
    )
  )[0];

/**
 * Kafka down must not stop the business: orders are accepted (their events wait in the outbox) and
 * the backlog drains once Kafka is back. Runs against a private broker, so stopping it never
 * disturbs tests that use the shared one.
 */
describe('orders keep coming while Kafka is down (private broker, real orders process)', () => {
  const services = new TestServices();
  let database: string;
  let kafka: PrivateKafka | undefined;
  let orders: ServiceProcess;
  let from: TopicOffsets;

  beforeAll(async () => {
    database = await services.createDatabase('outbox_outage');
    kafka = await PrivateKafka.start();
    orders = await services.start({
      service: 'orders',
      name: 'orders-outage',
      database,
      brokers: kafka.brokers,
      // Short backoff, so the drain after the outage is quick; the default caps at 30 s.
      env: { OUTBOX_RETRY_BASE_MS: '100', OUTBOX_RETRY_MAX_MS: '1000' },
    });
    await seedPrices(serverUrl, database, { 'SKU-OUTAGE': 100 });
    from = await topicEndOffsets(kafka.brokers, Topics.orders);
  });

  afterAll(async () => {
    await services.tearDown();
    await kafka?.destroy();
  });

  it('when the broker is down, then every POST /orders answers 201; once it is back, the backlog drains and every event is on the topic', async () => {
    await kafka!.pause();

    const ids: string[] = [];
    for (let n = 0; n < ORDERS_DURING_OUTAGE; n += 1) {
      const created = await requestJson('POST', `${orders.baseUrl}/orders`, {
        body: placeOrderPayload(order(n)),
        token: await customerToken(order(n).customerId),
        timeoutMs: 10_000,
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    expect(await countRows(serverUrl, database, ['orders', 'outbox_messages'])).toEqual({
      orders: ORDERS_DURING_OUTAGE,
      outbox_messages: ORDERS_DURING_OUTAGE,
    });

    // The relay did try, failed, and kept the rows: failure is recorded, nothing is marked.
    await waitFor(async () => (await pendingRows(database)).tried > 0, {
      timeoutMs: 60_000,
      description: 'a failed publish attempt recorded on a pending row',
    });
    expect((await pendingRows(database)).n).toBe(ORDERS_DURING_OUTAGE);

    // Probes during the outage: alive and ready (an orchestrator must neither restart nor drain a
    // service that still takes orders); only the full /health names Kafka as down.
    const probe = async (path: string) => (await requestJson('GET', `${orders.baseUrl}${path}`, { timeoutMs: 15_000 })).status;
    expect({ live: await probe('/health/live'), ready: await probe('/health/ready'), all: await probe('/health') }).toEqual({
      live: 200,
      ready: 200,
      all: 503,
    });

    await kafka!.resume();

    await waitFor(async () => (await pendingRows(database)).n === 0, {
      timeoutMs: 90_000,
      intervalMs: 250,
      description: 'the outbox backlog to drain',
    });
    const wanted = new Set(ids);
    const messages = await readTopicUntil(
      { brokers: kafka!.brokers, topic: Topics.orders, from, timeoutMs: 30_000, description: `all ${ids.length} OrderCreated events` },
      (all) => new Set(all.map((message) => message.key).filter((key) => key !== null && wanted.has(key))).size === wanted.size,
    );
    for (const id of ids) {
      const copies = messages.filter((message) => message.key === id);
      expect(copies.length).toBeGreaterThanOrEqual(1);
      expect(copies.every((message) => message.headers[Headers.messageType] === 'OrderCreated')).toBe(true);
    }
    const published = await queryTestDatabase<{ id: string; aggregate_id: string }>(
      serverUrl,
      database,
      'SELECT id, aggregate_id FROM outbox_messages',
    );
    for (const row of published) {
      expect(messages.find((message) => message.key === row.aggregate_id)?.headers[Headers.messageId]).toBe(row.id);
    }
  });
});
