import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { customerToken, placeOrder, seedPrices, serviceToken, testInfrastructure, TestServices, tokenFor } from '@test/fixtures';
import { DevIssuer, DevServiceClient, requestJson, type ServiceName, type ServiceProcess } from '@tools/local-stack';
import { expectProblem } from '../support/problem-details.js';

/**
 * Every route of the three services (real processes) needs a bearer
 * token from the trusted issuer, except health, metrics and the API documents; each way a token
 * can be wrong is a 401 problem, and the OpenAPI documents say exactly that.
 */
describe('authentication of every app (real processes, real tokens)', () => {
  const services = new TestServices();
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let loyalty: ServiceProcess;
  const env = { OUTBOX_RELAY_ENABLED: 'false' };

  beforeAll(async () => {
    loyalty = await services.start({ service: 'loyalty', database: await services.createDatabase('auth_loyalty'), env });
    inventory = await services.start({
      service: 'inventory',
      database: await services.createDatabase('auth_inventory'),
      env: { ...env, LOYALTY_BASE_URL: loyalty.baseUrl },
    });
    const ordersDatabase = await services.createDatabase('auth_orders');
    orders = await services.start({ service: 'orders', database: ordersDatabase, env });
    await seedPrices(testInfrastructure().serverUrl, ordersDatabase, { 'SKU-AUTH': 100 });
  });

  afterAll(() => services.tearDown());

  /** Every protected route, with its API and a body it would accept from a caller with the right token. */
  const routes = (): {
    app: ServiceProcess;
    api: ServiceName;
    method: string;
    path: string;
    body?: unknown;
    headers?: Record<string, string>;
  }[] => [
    { app: orders, api: 'orders', method: 'POST', path: '/orders', body: { items: [{ sku: 'SKU-AUTH', quantity: 1 }] } },
    { app: orders, api: 'orders', method: 'GET', path: `/orders/${randomUUID()}` },
    { app: orders, api: 'orders', method: 'POST', path: `/orders/${randomUUID()}/cancel` },
    { app: inventory, api: 'inventory', method: 'GET', path: '/stock/SKU-AUTH' },
    { app: inventory, api: 'inventory', method: 'PUT', path: '/stock/SKU-AUTH', body: { available: 1 } },
    { app: loyalty, api: 'loyalty', method: 'GET', path: '/accruals' },
    {
      app: loyalty,
      api: 'loyalty',
      method: 'POST',
      path: '/accruals',
      body: { customerId: 'c1', orderId: randomUUID(), points: 1 },
      headers: { 'Idempotency-Key': `auth-${randomUUID()}` },
    },
  ];

  /**
   * Sends every protected route with `authorization` (or the one it makes for the route's API) and
   * expects 401 AUTH.UNAUTHENTICATED, nothing done.
   */
  async function expectEveryRouteRefused(given: string | undefined | ((api: ServiceName) => Promise<string>)): Promise<void> {
    for (const route of routes()) {
      const authorization = typeof given === 'function' ? await given(route.api) : given;
      const response = await requestJson(route.method, `${route.app.baseUrl}${route.path}`, {
        body: route.body,
        headers: { ...route.headers, ...(authorization ? { authorization } : {}) },
      });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
      });
      expectProblem(response, 401, 'AUTH.UNAUTHENTICATED');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  }

  it('when a request carries no token, then every API route answers 401 problem details with a Bearer challenge', async () => {
    await expectEveryRouteRefused(undefined);
  });

  it('when the Authorization header is not a bearer JWT, then 401', async () => {
    await expectEveryRouteRefused('Basic dXNlcjpwYXNz');
    await expectEveryRouteRefused('Bearer not-a-jwt');
  });

  it('when a token is signed by a key the issuer never published, then 401', async () => {
    const impostor = await DevIssuer.create();
    await expectEveryRouteRefused(
      async (api) => `Bearer ${await impostor.sign({ sub: 'c1', scopes: ['admin', 'loyalty:accruals:write'], api })}`,
    );
  });

  it('when a token names another issuer, then 401', async () => {
    await expectEveryRouteRefused(async (api) => `Bearer ${await tokenFor({ sub: 'c1', issuer: 'https://evil.example.com/', api })}`);
  });

  it('when a token is for another audience, then 401', async () => {
    await expectEveryRouteRefused(async (api) => `Bearer ${await tokenFor({ sub: 'c1', audience: 'some-other-api', api })}`);
  });

  it("when a token is for another API of this system (every scope, the issuer's key), then 401: each API has its own audience", async () => {
    const others: Record<ServiceName, ServiceName> = { orders: 'loyalty', inventory: 'orders', loyalty: 'inventory' };
    await expectEveryRouteRefused(
      async (api) => `Bearer ${await tokenFor({ sub: 'c1', scopes: ['admin', 'loyalty:accruals:write'], api: others[api] })}`,
    );
  });

  it("when inventory's service token is used anywhere but loyalty, then 401; at loyalty it credits points", async () => {
    const token = await serviceToken();
    for (const route of routes().filter((route) => route.api !== DevServiceClient.api)) {
      const response = await requestJson(route.method, `${route.app.baseUrl}${route.path}`, {
        body: route.body,
        headers: route.headers,
        token,
      });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
      });
    }
    const accrual = await requestJson('POST', `${loyalty.baseUrl}/accruals`, {
      body: { customerId: 'c1', orderId: randomUUID(), points: 1 },
      headers: { 'Idempotency-Key': `auth-${randomUUID()}` },
      token,
    });
    expect(accrual.status).toBe(201);
  });

  it('when a token is not an access token (JOSE header typ JWT, as an ID token has), then 401 saying so', async () => {
    await expectEveryRouteRefused(
      async (api) => `Bearer ${await tokenFor({ sub: 'c1', scopes: ['admin', 'loyalty:accruals:write'], typ: 'JWT', api })}`,
    );
    const response = await requestJson('GET', `${orders.baseUrl}/orders/${randomUUID()}`, {
      token: await tokenFor({ sub: 'c1', typ: 'JWT', api: 'orders' }),
    });
    expect(response.body.detail).toContain('at+jwt');
  });

  it('when a token has expired, then 401', async () => {
    await expectEveryRouteRefused(async (api) => `Bearer ${await tokenFor({ sub: 'c1', expiresInSeconds: -120, api })}`);
  });

  it('when a token is unsigned (alg "none"), then 401', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    await expectEveryRouteRefused(async (api) => {
      const { AUTH_ISSUER: iss, AUTH_AUDIENCE: aud } = services.infrastructure.authEnv[api];
      return `Bearer ${encode({ alg: 'none', typ: 'at+jwt' })}.${encode({ sub: 'c1', iss, aud, exp: now + 600, scope: 'admin' })}.`;
    });
  });

  it('when health, metrics and the API documents are asked for without a token, then they answer 200', async () => {
    for (const app of [orders, inventory, loyalty]) {
      for (const path of ['/health', '/health/live', '/health/ready', '/metrics', '/docs', '/docs-json']) {
        expect({ app: app.name, path, status: (await fetch(`${app.baseUrl}${path}`)).status }).toEqual({
          app: app.name,
          path,
          status: 200,
        });
      }
    }
  });

  it('when the OpenAPI documents are read, then every operation but health and metrics requires the bearer scheme, and those say security: []', async () => {
    for (const app of [orders, inventory, loyalty]) {
      const document = (await requestJson('GET', `${app.baseUrl}/docs-json`)).body;
      expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
      for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { security?: unknown }>>)) {
        for (const [method, operation] of Object.entries(item)) {
          const open = path.startsWith('/health') || path === '/metrics';
          expect({ app: app.name, operation: `${method} ${path}`, security: operation.security }).toEqual({
            app: app.name,
            operation: `${method} ${path}`,
            security: open ? [] : [{ bearer: [] }],
          });
        }
      }
    }
  });

  it("when a customer places an order, then it is the token subject's, and a customerId in the body is refused 400 naming it", async () => {
    const order = await placeOrder(orders.baseUrl, {
      customerId: 'auth-subject',
      items: [{ sku: 'SKU-AUTH', quantity: 1 }],
    });
    expect(order.customerId).toBe('auth-subject');

    const response = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: { customerId: 'someone-else', items: [{ sku: 'SKU-AUTH', quantity: 1 }] },
      token: await customerToken('auth-subject'),
    });
    expectProblem(response, 400, 'REQUEST.VALIDATION_FAILED');
    expect(response.body.fields).toEqual(['customerId']);
  });
});
