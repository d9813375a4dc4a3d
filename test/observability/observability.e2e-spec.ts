import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { customerToken, scrapeMetric, serviceToken, setStock, TestServices } from '@test/fixtures';
import { requestJson, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { parse } from 'yaml';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { exportedMetricNames, metricNamesIn } from '../support/promql-metric-names.js';

/**
 * What an operator and a client read from the three services as real processes (started once for
 * the whole file, they are slow to start): metrics (`/metrics` on every app, HTTP latency by route
 * and status, idempotent replays, consumer lag per partition), the OpenAPI documents and the
 * health probes.
 */
describe('the running services, as an operator and a client see them', () => {
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
    const token = await customerToken(uniqueName('metrics-customer'));
    const missing = await requestJson('GET', `${orders.baseUrl}/orders/00000000-0000-4000-8000-000000000000`, { token });
    expect(missing.status).toBe(404);
    const invalid = await requestJson('POST', `${orders.baseUrl}/orders`, { body: { items: [] }, token });
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
    const token = await serviceToken();
    const first = await requestJson('POST', `${loyalty.baseUrl}/accruals`, { body, headers: { 'Idempotency-Key': key }, token });
    expect(first.status).toBe(201);
    const before = await scrapeMetric(loyalty.baseUrl, 'idempotency_replays_total', { route: '/accruals' });
    const again = await requestJson('POST', `${loyalty.baseUrl}/accruals`, { body, headers: { 'Idempotency-Key': key }, token });
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

  describe('OpenAPI documents', () => {
    type Operation = { parameters?: { name: string; in: string; required?: boolean }[]; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
    type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> } };
    const docs = async (service: ServiceProcess) => {
      const response = await requestJson<Document>('GET', `${service.baseUrl}/docs-json`);
      expect(response.status).toBe(200);
      return response.body;
    };
    /** `{ 'post /orders': ['201', '400', ...] }`: every operation with its documented statuses. */
    const statuses = (document: Document) =>
      Object.fromEntries(
        Object.entries(document.paths).flatMap(([path, operations]) =>
          Object.entries(operations).map(([method, operation]) => [`${method} ${path}`, Object.keys(operation.responses).sort()]),
        ),
      );
    const errorBodyOf = (operation: Operation, status: string) => operation.responses[status]?.content?.['application/problem+json']?.schema?.$ref;

    it('when orders is asked, then /docs-json lists every route with each status it answers', async () => {
      const document = await docs(orders);
      expect(document.openapi).toMatch(/^3\./);
      expect(statuses(document)).toEqual({
        'post /orders': ['201', '400', '401', '403', '413', '415', '422', '429', '503'],
        'get /orders/{id}': ['200', '400', '401', '404', '503'],
        'post /orders/{id}/cancel': ['200', '400', '401', '404', '409', '415', '503'],
        'get /health': ['200', '503'],
        'get /health/live': ['200'],
        'get /health/ready': ['200', '503'],
        'get /metrics': ['200'],
      });
    });

    it('when orders is asked, then POST /orders documents an optional Idempotency-Key header and the problem+json body of each error answer', async () => {
      const document = await docs(orders);
      const place = document.paths['/orders'].post;
      expect(place.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]));
      for (const status of ['400', '401', '403', '413', '415', '422', '429', '503']) {
        expect(errorBodyOf(place, status)).toBe('#/components/schemas/ProblemDetails');
      }
      expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['ProblemDetails', 'OrderResponse', 'PlaceOrderRequest']));
      expect(document.components.schemas.ProblemDetails.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']));
      // The server prices the lines: a line documents sku and quantity, nothing a client could price with.
      expect(Object.keys(document.components.schemas.OrderLineRequest.properties ?? {}).sort()).toEqual(['quantity', 'sku']);
      // The customer is the token's subject (a body could name anyone): the body has no customerId either.
      expect(Object.keys(document.components.schemas.PlaceOrderRequest.properties ?? {}).sort()).toEqual(['items']);
    });

    it('when inventory is asked, then /docs-json lists the stock routes with their statuses', async () => {
      expect(statuses(await docs(inventory))).toEqual(
        expect.objectContaining({
          'get /stock/{sku}': ['200', '400', '401', '404', '503'],
          'put /stock/{sku}': ['200', '400', '401', '403', '413', '415', '503'],
        }),
      );
    });

    it('when loyalty is asked, then POST /accruals requires the Idempotency-Key header and documents 422', async () => {
      const document = await docs(loyalty);
      expect(statuses(document)).toEqual(
        expect.objectContaining({
          'post /accruals': ['201', '400', '401', '403', '413', '415', '422', '429', '503'],
          'get /accruals': ['200', '400', '401', '503'],
        }),
      );
      const record = document.paths['/accruals'].post;
      expect(record.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true })]));
      expect(errorBodyOf(record, '422')).toBe('#/components/schemas/ProblemDetails');
      // The compensation: a reversal per order (409 while its accrual has not arrived) and the balance.
      expect(statuses(document)).toEqual(
        expect.objectContaining({
          'post /reversals': ['201', '400', '401', '403', '409', '413', '415', '422', '429', '503'],
          'get /balance': ['200', '400', '401', '503'],
        }),
      );
      const reverse = document.paths['/reversals'].post;
      expect(reverse.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true })]));
    });

    it('when a browser opens /docs, then each app serves the Swagger UI page', async () => {
      for (const service of [orders, inventory, loyalty]) {
        const response = await fetch(`${service.baseUrl}/docs`);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('swagger-ui');
      }
    });
  });

  describe('health probes', () => {
    it('when every dependency answers, then /health, /health/live and /health/ready all answer 200', async () => {
      for (const service of [orders, inventory, loyalty]) {
        for (const path of ['/health', '/health/live', '/health/ready']) {
          expect({ service: service.name, path, status: (await fetch(`${service.baseUrl}${path}`)).status }).toEqual({ service: service.name, path, status: 200 });
        }
      }
    });

    it('when orders is asked, then only /health checks Kafka: liveness and readiness do not depend on it', async () => {
      const bodies = Object.fromEntries(
        await Promise.all(['/health', '/health/live', '/health/ready'].map(async (path) => [path, (await requestJson('GET', `${orders.baseUrl}${path}`)).body])),
      );
      expect(Object.keys(bodies['/health'].details).sort()).toEqual(['database', 'kafka']);
      expect(Object.keys(bodies['/health/ready'].details)).toEqual(['database']);
      expect(bodies['/health/live'].details).toEqual({});
    });
  });

  describe('dashboard and alert rules against what the apps export', () => {
    const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    type Panel = { title?: string; targets?: { expr?: string }[]; panels?: Panel[] };
    const dashboardQueries = (): { where: string; expr: string }[] => {
      const walk = (panels: Panel[]): { where: string; expr: string }[] =>
        panels.flatMap((panel) => [
          ...(panel.targets ?? []).flatMap((target) => (target.expr ? [{ where: `panel "${panel.title}"`, expr: target.expr }] : [])),
          ...walk(panel.panels ?? []),
        ]);
      return walk((JSON.parse(repoFile('observability/grafana/dashboards/outbox-inbox.json')) as { panels: Panel[] }).panels);
    };
    const ruleQueries = (): { where: string; expr: string }[] =>
      (parse(repoFile('observability/prometheus/alerts.yml')) as { groups: { rules: { alert?: string; record?: string; expr: string }[] }[] }).groups.flatMap(
        (group) => group.rules.map((rule) => ({ where: `rule ${rule.alert ?? rule.record}`, expr: rule.expr })),
      );
    const exported = async () => {
      const names = new Set<string>();
      for (const service of [orders, inventory, loyalty]) {
        for (const name of exportedMetricNames(await (await fetch(`${service.baseUrl}/metrics`)).text())) names.add(name);
      }
      return names;
    };

    it('when the dashboard and the rules are read, then they query metrics (the check below is not vacuous)', () => {
      expect(dashboardQueries().length).toBeGreaterThanOrEqual(15);
      expect(ruleQueries().length).toBeGreaterThanOrEqual(5);
      expect(dashboardQueries().flatMap(({ expr }) => metricNamesIn(expr))).toContain('kafka_consumer_lag');
    });

    it('when every query is checked, then each metric it names is exported by at least one running app', async () => {
      const names = await exported();
      const unknown = [...dashboardQueries(), ...ruleQueries()].flatMap(({ where, expr }) =>
        metricNamesIn(expr)
          .filter((name) => !names.has(name))
          .map((name) => `${where}: ${name}`),
      );
      expect(unknown).toEqual([]);
    });
  });
});
