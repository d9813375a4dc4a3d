import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminToken, customerToken, placeOrder, seedPrices, serviceToken, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, requestJson, type ServiceProcess, uniqueName, uniqueSku } from '@tools/local-stack';
import { expectProblem } from '../support/problem-details.js';

const { serverUrl } = testInfrastructure();
const BODY_LIMIT_BYTES = 2048;
const tooLarge = { customerId: 'x'.repeat(BODY_LIMIT_BYTES) };

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
}

/** Error answers every app gives the same way: they come from the shared HTTP layer. */
const everyApp = (postPath: string): Case[] => [
  { name: 'an unknown route', method: 'GET', path: `/no-such-route/${randomUUID()}`, status: 404, code: 'REQUEST.ROUTE_NOT_FOUND' },
  { name: 'a body that is not JSON', method: 'POST', path: postPath, rawBody: '{"broken": ', status: 400, code: 'REQUEST.MALFORMED_JSON' },
  {
    name: 'a body over HTTP_BODY_LIMIT_BYTES',
    method: 'POST',
    path: postPath,
    body: tooLarge,
    status: 413,
    code: 'REQUEST.BODY_TOO_LARGE',
  },
];

/**
 * Every error answer of the three services, as real processes: RFC 9457 `application/problem+json`
 * with a stable `code`, whatever produced it (the router, the body parser, validation, the
 * idempotency interceptor, a use case, a failed transaction).
 */
describe('error answers of every app (real processes)', () => {
  const services = new TestServices();
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let loyalty: ServiceProcess;
  let ordersDatabase: string;
  const env = { HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES), OUTBOX_RELAY_ENABLED: 'false' };

  beforeAll(async () => {
    ordersDatabase = await services.createDatabase('problems_orders');
    loyalty = await services.start({ service: 'loyalty', database: await services.createDatabase('problems_loyalty'), env });
    inventory = await services.start({
      service: 'inventory',
      database: await services.createDatabase('problems_inventory'),
      env: { ...env, LOYALTY_BASE_URL: loyalty.baseUrl },
    });
    orders = await services.start({ service: 'orders', database: ordersDatabase, env });
    await seedPrices(serverUrl, ordersDatabase, { 'SKU-1': 1 });
  });

  afterAll(() => services.tearDown());

  /** As the caller each app serves: a customer at orders, inventory's service at loyalty, an operator at inventory. */
  const send = async (service: ServiceProcess, { method, path, body, rawBody, headers }: Case) => {
    const token = service === orders ? await customerToken('problems') : service === loyalty ? await serviceToken() : await adminToken();
    return requestJson(method, `${service.baseUrl}${path}`, { body, rawBody, headers, token });
  };

  it.each([
    ...everyApp('/orders'),
    { name: 'an invalid body', method: 'POST', path: '/orders', body: { items: [] }, status: 400, code: 'REQUEST.VALIDATION_FAILED' },
    {
      name: 'a customerId in the body',
      method: 'POST',
      path: '/orders',
      body: { customerId: 'someone-else', items: [{ sku: 'SKU-1', quantity: 1, unitPriceCents: 1 }] },
      status: 400,
      code: 'REQUEST.VALIDATION_FAILED',
    },
    { name: 'an id that is not a UUID', method: 'GET', path: '/orders/42', status: 400, code: 'REQUEST.VALIDATION_FAILED' },
    { name: 'an unknown order', method: 'GET', path: `/orders/${randomUUID()}`, status: 404, code: 'ORDERS.NOT_FOUND' },
  ] satisfies Case[])('when orders gets $name, then it answers $status problem details with $code', async (request) => {
    expectProblem(await send(orders, request), request.status, request.code);
  });

  it.each([
    ...everyApp('/accruals'),
    { name: 'no Idempotency-Key', method: 'POST', path: '/accruals', body: {}, status: 400, code: 'IDEMPOTENCY.KEY_REQUIRED' },
    {
      name: 'a malformed Idempotency-Key',
      method: 'POST',
      path: '/accruals',
      body: {},
      headers: { 'Idempotency-Key': 'x' },
      status: 400,
      code: 'IDEMPOTENCY.KEY_MALFORMED',
    },
    {
      name: 'an invalid body',
      method: 'POST',
      path: '/accruals',
      body: { points: 0 },
      headers: { 'Idempotency-Key': uniqueName('problems') },
      status: 400,
      code: 'REQUEST.VALIDATION_FAILED',
    },
    { name: 'a customerId query', method: 'GET', path: '/accruals?customerId=c1', status: 400, code: 'REQUEST.VALIDATION_FAILED' },
  ] satisfies Case[])('when loyalty gets $name, then it answers $status problem details with $code', async (request) => {
    expectProblem(await send(loyalty, request), request.status, request.code);
  });

  it.each([
    ...everyApp('/stock/SKU-PROBLEMS'),
    {
      name: 'an invalid body',
      method: 'PUT',
      path: '/stock/SKU-PROBLEMS',
      body: { available: -1 },
      status: 400,
      code: 'REQUEST.VALIDATION_FAILED',
    },
    { name: 'a malformed SKU', method: 'GET', path: '/stock/bad-sku', status: 400, code: 'REQUEST.VALIDATION_FAILED' },
    { name: 'an unknown SKU', method: 'GET', path: `/stock/${uniqueSku('SKU-NONE')}`, status: 404, code: 'INVENTORY.UNKNOWN_SKU' },
  ] satisfies Case[])('when inventory gets $name, then it answers $status problem details with $code', async (request) => {
    expectProblem(await send(inventory, request), request.status, request.code);
  });

  it('when a validation fails, then the body names each field in `fields` and describes each problem in `errors`', async () => {
    const response = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: { items: [{ sku: 'SKU-1', quantity: 0, unitPriceCents: -1 }] },
      token: await customerToken('c'),
    });
    expectProblem(response, 400, 'REQUEST.VALIDATION_FAILED');
    expect(response.body.fields).toEqual(['items[0].quantity', 'items[0].unitPriceCents']);
    expect(response.body.errors).toEqual([
      { field: 'items[0].quantity', detail: expect.stringContaining('items[0].quantity') },
      // A price is never the client's to set: the detail says where it comes from.
      { field: 'items[0].unitPriceCents', detail: expect.stringContaining('set by the server') },
    ]);
  });

  it('when an order names a SKU that is not on the price list, then orders answers 422 ORDERS.UNKNOWN_SKU naming the line', async () => {
    const response = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: {
        items: [
          { sku: 'SKU-1', quantity: 1 },
          { sku: uniqueSku('SKU-UNPRICED'), quantity: 1 },
        ],
      },
      token: await customerToken('c'),
    });
    expectProblem(response, 422, 'ORDERS.UNKNOWN_SKU');
    expect(response.body.fields).toEqual(['items[1].sku']);
  });

  it('when the same Idempotency-Key comes with another body, then loyalty answers 422 problem details naming the header', async () => {
    const key = uniqueName('problems-reuse');
    const post = async (points: number) =>
      requestJson('POST', `${loyalty.baseUrl}/accruals`, {
        body: { customerId: 'c', orderId: randomUUID(), points },
        headers: { 'Idempotency-Key': key },
        token: await serviceToken(),
      });
    expect((await post(1)).status).toBe(201);
    const reused = await post(2);
    expectProblem(reused, 422, 'IDEMPOTENCY.KEY_REUSED');
    expect(reused.body.fields).toEqual(['Idempotency-Key']);
  });

  it('when a rejected order is cancelled, then orders answers 409 problem details with ORDERS.NOT_CANCELLABLE', async () => {
    const order = await placeOrder(orders.baseUrl, { customerId: 'problems', items: [{ sku: 'SKU-1', quantity: 1 }] });
    // The relay is off: the rejection is written as inventory's answer would leave it.
    await queryTestDatabase(serverUrl, ordersDatabase, `UPDATE orders SET status = 'REJECTED' WHERE id = $1`, [order.id]);
    const cancel = await requestJson('POST', `${orders.baseUrl}/orders/${order.id}/cancel`, { token: await customerToken('problems') });
    expectProblem(cancel, 409, 'ORDERS.NOT_CANCELLABLE');
  });

  it('when the transaction fails inside the server, then orders answers 500 problem details that reveal nothing of the cause', async () => {
    const constraint = uniqueName('test_break').toLowerCase();
    await queryTestDatabase(serverUrl, ordersDatabase, `ALTER TABLE outbox_messages ADD CONSTRAINT ${constraint} CHECK (false) NOT VALID`);
    try {
      const response = await requestJson('POST', `${orders.baseUrl}/orders`, {
        body: { items: [{ sku: 'SKU-1', quantity: 1 }] },
        token: await customerToken('c'),
      });
      expectProblem(response, 500, 'SERVER.INTERNAL_ERROR');
      expect(response.text).not.toMatch(new RegExp(`${constraint}|outbox_messages|violates`));
    } finally {
      await queryTestDatabase(serverUrl, ordersDatabase, `ALTER TABLE outbox_messages DROP CONSTRAINT ${constraint}`);
    }
  });
});
