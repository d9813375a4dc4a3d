import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@app/contracts';
import {
  requestJson,
  type ServiceProcess,
  scrapeMetric,
  setStock,
  TestServices,
  uniqueName,
  uniqueSku,
  waitFor,
} from '@app/testing';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';

/**
 * The metrics issue 8 asked for, read from the three services as real processes: `/metrics` on
 * every app, HTTP latency by route and status, idempotent replays, and consumer lag per partition.
 */
describe('metrics of the running services', () => {
  const services = new TestServices();
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let loyalty: ServiceProcess;

  beforeAll(async () => {
    ({ inventory, loyalty } = await startInventoryWithLoyalty(services, 'metrics', { KAFKA_LAG_INTERVAL_MS: '500' }));
    orders = await services.start({ service: 'orders', database: await services.createDatabase('metrics_orders'), env: { KAFKA_LAG_INTERVAL_MS: '500' } });
  });

  afterAll(() => services.tearDown());

  it('when each app is scraped, then GET /metrics answers 200 in the Prometheus text format with its service label', async () => {
    for (const [name, service] of Object.entries({ orders, inventory, loyalty })) {
      const response = await fetch(`${service.baseUrl}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toContain(`service="${name}"`);
    }
  });

  it('when requests succeed and fail, then http_request_duration_seconds counts them by route template and status', async () => {
    const sku = uniqueSku('METRICS');
    await setStock(inventory.baseUrl, sku, 5);
    const missing = await requestJson('GET', `${orders.baseUrl}/orders/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    const invalid = await requestJson('POST', `${orders.baseUrl}/orders`, { body: { customerId: '' } });
    expect(invalid.status).toBe(400);
    await requestJson('GET', `${orders.baseUrl}/no-such-route/${uniqueName('x')}`);

    const count = (service: ServiceProcess, labels: Record<string, string>) =>
      scrapeMetric(service.baseUrl, 'http_request_duration_seconds_count', labels);
    expect(await count(inventory, { method: 'PUT', route: '/stock/:sku', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(await count(orders, { method: 'GET', route: '/orders/:id', status: '404' })).toBe(1);
    expect(await count(orders, { method: 'POST', route: '/orders', status: '400' })).toBe(1);
    // Unknown paths share one label value, so a scanner cannot create a series per path.
    expect(await count(orders, { route: 'unmatched', status: '404' })).toBe(1);
  });

  it('when a request is repeated with the same Idempotency-Key, then idempotency_replays_total counts the replay', async () => {
    const key = uniqueName('metrics-accrual');
    const body = { customerId: uniqueName('customer'), orderId: crypto.randomUUID(), points: 7 };
    const first = await requestJson('POST', `${loyalty.baseUrl}/accruals`, { body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const before = await scrapeMetric(loyalty.baseUrl, 'idempotency_replays_total', { route: '/accruals' });
    const again = await requestJson('POST', `${loyalty.baseUrl}/accruals`, { body, headers: { 'Idempotency-Key': key } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await scrapeMetric(loyalty.baseUrl, 'idempotency_replays_total', { route: '/accruals' })).toBe(before + 1);
  });

  it('when a consuming app runs, then kafka_consumer_lag reports each partition of the topic it consumes', async () => {
    for (const [service, topic] of [
      [inventory, Topics.orders],
      [orders, Topics.reservations],
    ] as const) {
      const text = await waitFor(
        async () => {
          const body = await (await fetch(`${service.baseUrl}/metrics`)).text();
          return body.includes(`kafka_consumer_lag{group=`) && body.includes(`topic="${topic}"`) ? body : undefined;
        },
        { timeoutMs: 30_000, description: `${service.name} to export kafka_consumer_lag for ${topic}` },
      );
      const partitions = [...text.matchAll(new RegExp(`^kafka_consumer_lag\\{[^}]*topic="${topic.replace(/\./g, '\\.')}"[^}]*partition="(\\d+)"`, 'gm'))].map((m) => m[1]);
      expect(new Set(partitions).size).toBeGreaterThanOrEqual(1);
    }
  });
});
