import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { countRows, customerToken, placeOrderPayload, scrapeMetric, seedPrices, TestServices } from '@test/fixtures';
import { type JsonResponse, queryTestDatabase, requestJson, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';

/**
 * Load shedding at the door, on a real orders process: with its relay off, the outbox backlog
 * passes a small bound, and `POST /orders` is then answered 503 problem+json with Retry-After and
 * writes nothing (no order, no outbox row, no idempotency key). Once a relay runs and drains the
 * backlog, orders are accepted again, and every order accepted before was published.
 */
const OUTBOX_PENDING_MAX = 3;

describe('load shedding (orders as a real process, its relay off then on)', () => {
  const services = new TestServices();
  const { infrastructure } = services;
  const sku = uniqueSku('SHED');
  const customerId = uniqueName('shed-customer');
  let orders: ServiceProcess;
  let database: string;
  const accepted: string[] = [];

  const post = async (idempotencyKey = randomUUID()): Promise<JsonResponse> => {
    const response = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: placeOrderPayload({ customerId, items: [{ sku, quantity: 1 }] }),
      headers: { 'Idempotency-Key': idempotencyKey },
      token: await customerToken(customerId),
    });
    if (response.status === 201) accepted.push(response.body.id);
    return response;
  };
  const tables = () => countRows(infrastructure.serverUrl, database, ['orders', 'outbox_messages', 'idempotency_keys']);

  beforeAll(async () => {
    database = await services.createDatabase('load_shedding_orders');
    orders = await services.start({
      service: 'orders',
      database,
      env: {
        OUTBOX_RELAY_ENABLED: 'false',
        LOAD_SHED_ENABLED: 'true',
        LOAD_SHED_OUTBOX_PENDING_MAX: String(OUTBOX_PENDING_MAX),
        LOAD_SHED_SAMPLE_INTERVAL_MS: '100',
        LOAD_SHED_RETRY_AFTER_SECONDS: '2',
      },
    });
    await seedPrices(infrastructure.serverUrl, database, { [sku]: 100 });
  });

  afterAll(() => services.tearDown());

  it('when the outbox backlog passes its bound, then POST /orders answers 503 problem+json with Retry-After and writes nothing', async () => {
    let shed: JsonResponse | undefined;
    // Orders are accepted until the sampler has read a backlog past the bound (its next tick).
    await waitFor(
      async () => {
        const response = await post();
        if (response.status === 503) shed = response;
        else expect(response.status).toBe(201);
        return shed !== undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50, description: 'POST /orders to be shed' },
    );
    expect(accepted.length).toBeGreaterThan(OUTBOX_PENDING_MAX);

    const before = await tables();
    const again = await post();
    expect(again.status).toBe(503);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect(again.headers.get('retry-after')).toBe('2');
    expect(again.body).toMatchObject({ status: 503, code: 'SERVER.OVERLOADED', type: 'urn:problem-type:SERVER.OVERLOADED' });
    expect(again.body.detail).toContain(`outbox_pending is ${OUTBOX_PENDING_MAX + 1}, past its bound of ${OUTBOX_PENDING_MAX}`);
    expect(await tables()).toEqual(before);
    expect(before.orders).toBe(accepted.length);
    expect(await scrapeMetric(orders.baseUrl, 'http_requests_shed_total', { signal: 'outbox_pending' })).toBeGreaterThanOrEqual(2);
  });

  it('when a relay drains the backlog, then POST /orders answers 201 again and every accepted order was published', async () => {
    await orders.stop();
    await orders.restart({ env: { OUTBOX_RELAY_ENABLED: 'true' } });
    await waitFor(async () => (await post()).status === 201, {
      timeoutMs: 60_000,
      intervalMs: 250,
      description: 'POST /orders to be accepted again',
    });
    await waitFor(
      async () => {
        const [{ pending }] = await queryTestDatabase<{ pending: number }>(
          infrastructure.serverUrl,
          database,
          'SELECT count(*)::int AS pending FROM outbox_messages WHERE published_at IS NULL',
        );
        return pending === 0;
      },
      { timeoutMs: 60_000, intervalMs: 250, description: 'the outbox to drain' },
    );
    const counts = await tables();
    expect(counts.orders).toBe(accepted.length);
    expect(counts.outbox_messages).toBe(accepted.length);
  });
});
