import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { countRows, customerToken, placeOrder, seedPrices, testInfrastructure, TestServices } from '@test/fixtures';
import { type JsonResponse, requestJson, type ServiceProcess, uniqueName } from '@tools/local-stack';
import { expectProblem } from '../support/problem-details.js';

const { serverUrl } = testInfrastructure();
const TABLES = ['orders', 'order_items', 'outbox_messages', 'idempotency_keys'] as const;
const BODY_LIMIT_BYTES = 4096;

const line = { sku: 'SKU-1', quantity: 1 };
/** The customer of every request here: the subject of the token sent. */
const CUSTOMER = 'malformed-suite';
const valid = { items: [line] };
const withLine = (overrides: Record<string, unknown>) => ({ ...valid, items: [{ ...line, ...overrides }] });

interface Case {
  name: string;
  method: 'GET' | 'POST';
  /** Path; `:unknown` becomes a random UUID no order has. */
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  status: number;
  /** The stable `code` of the problem details body. */
  code: string;
  /** The field the error body must name (in `fields`). */
  field?: string;
}

/** The key the seed order was created with; reused with another body for the 422 case. */
const seedKey = uniqueName('malformed-seed-key');

const cases: Case[] = [
  {
    name: 'body that is not JSON',
    method: 'POST',
    path: '/orders',
    rawBody: '{"customerId": "c", "items": [',
    status: 400,
    code: 'REQUEST.MALFORMED_JSON',
  },
  {
    name: 'unknown top-level field',
    method: 'POST',
    path: '/orders',
    body: { ...valid, discount: 10 },
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'discount',
  },
  {
    name: 'unknown field in an item',
    method: 'POST',
    path: '/orders',
    body: withLine({ color: 'red' }),
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items[0].color',
  },
  {
    name: "a customerId in the body (the customer is the token's subject)",
    method: 'POST',
    path: '/orders',
    body: { ...valid, customerId: CUSTOMER },
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'customerId',
  },
  {
    name: 'a customerId of 65 characters in the body',
    method: 'POST',
    path: '/orders',
    body: { ...valid, customerId: 'c'.repeat(65) },
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'customerId',
  },
  {
    name: 'items not an array',
    method: 'POST',
    path: '/orders',
    body: { ...valid, items: line },
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items',
  },
  {
    name: '0 items',
    method: 'POST',
    path: '/orders',
    body: { ...valid, items: [] },
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items',
  },
  {
    name: '51 items',
    method: 'POST',
    path: '/orders',
    body: { ...valid, items: Array.from({ length: 51 }, () => line) },
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items',
  },
  {
    name: 'quantity 0',
    method: 'POST',
    path: '/orders',
    body: withLine({ quantity: 0 }),
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items[0].quantity',
  },
  {
    name: 'quantity 1001',
    method: 'POST',
    path: '/orders',
    body: withLine({ quantity: 1001 }),
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items[0].quantity',
  },
  {
    name: 'quantity as a string',
    method: 'POST',
    path: '/orders',
    body: withLine({ quantity: '1' }),
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items[0].quantity',
  },
  {
    name: 'a price of its own in a line (prices come from the price list)',
    method: 'POST',
    path: '/orders',
    body: withLine({ unitPriceCents: 1 }),
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items[0].unitPriceCents',
  },
  {
    name: 'a total of its own',
    method: 'POST',
    path: '/orders',
    body: { ...valid, totalCents: 1 },
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'totalCents',
  },
  {
    name: 'a SKU that is not on the price list',
    method: 'POST',
    path: '/orders',
    body: withLine({ sku: 'SKU-NOT-SOLD' }),
    status: 422,
    code: 'ORDERS.UNKNOWN_SKU',
    field: 'items[0].sku',
  },
  {
    name: 'lower-case sku with a space',
    method: 'POST',
    path: '/orders',
    body: withLine({ sku: 'bad sku' }),
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'items[0].sku',
  },
  {
    name: `body over HTTP_BODY_LIMIT_BYTES (${BODY_LIMIT_BYTES})`,
    method: 'POST',
    path: '/orders',
    body: { ...valid, padding: 'x'.repeat(BODY_LIMIT_BYTES) },
    status: 413,
    code: 'REQUEST.BODY_TOO_LARGE',
  },
  {
    name: 'Idempotency-Key too short',
    method: 'POST',
    path: '/orders',
    body: valid,
    headers: { 'Idempotency-Key': 'short' },
    status: 400,
    code: 'IDEMPOTENCY.KEY_MALFORMED',
    field: 'Idempotency-Key',
  },
  {
    name: 'Idempotency-Key with a space',
    method: 'POST',
    path: '/orders',
    body: valid,
    headers: { 'Idempotency-Key': 'has a space in it' },
    status: 400,
    code: 'IDEMPOTENCY.KEY_MALFORMED',
    field: 'Idempotency-Key',
  },
  {
    name: 'same Idempotency-Key with a different body',
    method: 'POST',
    path: '/orders',
    body: { items: [{ ...line, quantity: 2 }] },
    headers: { 'Idempotency-Key': seedKey },
    status: 422,
    code: 'IDEMPOTENCY.KEY_REUSED',
    field: 'Idempotency-Key',
  },
  {
    name: 'GET of an id that is not a UUID',
    method: 'GET',
    path: '/orders/not-a-uuid',
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'id',
  },
  { name: 'GET of an unknown id', method: 'GET', path: '/orders/:unknown', status: 404, code: 'ORDERS.NOT_FOUND' },
  {
    name: 'cancel of an id that is not a UUID',
    method: 'POST',
    path: '/orders/not-a-uuid/cancel',
    status: 400,
    code: 'REQUEST.VALIDATION_FAILED',
    field: 'id',
  },
  { name: 'cancel of an unknown id', method: 'POST', path: '/orders/:unknown/cancel', status: 404, code: 'ORDERS.NOT_FOUND' },
];

/** Every field name an error body mentions (validation and idempotency errors share `fields`). */
function fieldsNamed(response: JsonResponse): string[] {
  return (response.body as { fields?: string[] } | undefined)?.fields ?? [];
}

describe('malformed requests to the orders API (real orders process)', () => {
  const services = new TestServices();
  let database: string;
  let orders: ServiceProcess;
  let before: Record<(typeof TABLES)[number], number>;

  beforeAll(async () => {
    database = await services.createDatabase('orders_malformed');
    orders = await services.start({
      service: 'orders',
      name: 'orders-malformed',
      database,
      env: { HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) },
    });
    await seedPrices(serverUrl, database, { 'SKU-1': 100 });
    await placeOrder(orders.baseUrl, { customerId: CUSTOMER, ...valid }, { idempotencyKey: seedKey });
    before = await countRows(serverUrl, database, TABLES);
    expect(before).toEqual({ orders: 1, order_items: 1, outbox_messages: 1, idempotency_keys: 1 });
  });

  afterAll(() => services.tearDown());

  it.each(cases)(
    'when the request has $name, then it gets $status problem details with $code',
    async ({ method, path, body, rawBody, headers, status, code, field }) => {
      const url = `${orders.baseUrl}${path.replace(':unknown', randomUUID())}`;
      const response = await requestJson(method, url, { body, rawBody, headers, token: await customerToken(CUSTOMER) });
      expectProblem(response, status, code);
      if (field) expect(fieldsNamed(response)).toContain(field);
      expect(await countRows(serverUrl, database, TABLES)).toEqual(before);
    },
  );

  it('when all malformed requests are done, then no table gained or lost a row', async () => {
    expect(await countRows(serverUrl, database, TABLES)).toEqual(before);
  });

  it('when a request with a fresh Idempotency-Key is rejected, then the key is not used up: the same key with a valid body succeeds once', async () => {
    const key = uniqueName('malformed-then-valid');
    const token = await customerToken(CUSTOMER);
    const rejected = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: withLine({ quantity: 0 }),
      headers: { 'Idempotency-Key': key },
      token,
    });
    expect(rejected.status).toBe(400);
    expect(await countRows(serverUrl, database, TABLES)).toEqual(before);
    // Refused inside the transaction (the SKU is priced there): the claim of the key rolls back too.
    const unpriced = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: withLine({ sku: 'SKU-NOT-SOLD' }),
      headers: { 'Idempotency-Key': key },
      token,
    });
    expect(unpriced.status).toBe(422);
    expect(await countRows(serverUrl, database, TABLES)).toEqual(before);

    const accepted = await requestJson('POST', `${orders.baseUrl}/orders`, { body: valid, headers: { 'Idempotency-Key': key }, token });
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('idempotent-replayed')).toBeNull();
    expect(await countRows(serverUrl, database, TABLES)).toEqual({
      orders: before.orders + 1,
      order_items: before.order_items + 1,
      outbox_messages: before.outbox_messages + 1,
      idempotency_keys: before.idempotency_keys + 1,
    });
  });
});
