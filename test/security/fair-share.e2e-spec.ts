import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { customerToken, placeOrderPayload, seedPrices, testInfrastructure, TestServices, tokenFor } from '@test/fixtures';
import { queryTestDatabase, requestJson, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';

/**
 * One customer token must not take what others need: without a limit, a customer placing orders
 * without an Idempotency-Key as fast as the server takes them buys out a scarce SKU.
 * POST /orders is limited per customer by a token bucket (ORDERS_CUSTOMER_BURST,
 * ORDERS_CUSTOMER_RATE_PER_S), with or without a key; here a small bucket, so that the test stays
 * short. And loyalty, like orders, refuses a token whose `sub` is not one customer.
 */
const { serverUrl } = testInfrastructure();
const SKU = uniqueSku('FAIR');
const BURST = 3;

describe('a fair share per customer (orders and loyalty as real processes)', () => {
  const services = new TestServices();
  let orders: ServiceProcess;
  let loyalty: ServiceProcess;
  let database: string;

  const place = async (customerId: string, idempotencyKey?: string) =>
    requestJson('POST', `${orders.baseUrl}/orders`, {
      body: placeOrderPayload({ customerId, items: [{ sku: SKU, quantity: 1 }] }),
      token: await customerToken(customerId),
      ...(idempotencyKey && { headers: { 'Idempotency-Key': idempotencyKey } }),
    });
  const ordersOf = async (customerId: string) =>
    (
      await queryTestDatabase<{ n: number }>(serverUrl, database, 'SELECT count(*)::int AS n FROM orders WHERE customer_id = $1', [
        customerId,
      ])
    )[0].n;

  beforeAll(async () => {
    database = await services.createDatabase('fair_share_orders');
    orders = await services.start({
      service: 'orders',
      database,
      env: { ORDERS_CUSTOMER_BURST: String(BURST), ORDERS_CUSTOMER_RATE_PER_S: '1', OUTBOX_RELAY_ENABLED: 'false' },
    });
    await seedPrices(serverUrl, database, { [SKU]: 100 });
    loyalty = await services.start({ service: 'loyalty', database: await services.createDatabase('fair_share_loyalty') });
  });

  afterAll(() => services.tearDown());

  it('when a customer places orders faster than its rate, with or without an Idempotency-Key, then it gets 429 with Retry-After while another customer is served', async () => {
    const greedy = uniqueName('greedy');
    const other = uniqueName('patient');
    const burst = [];
    for (let n = 0; n < BURST; n += 1) burst.push(await place(greedy, n % 2 === 0 ? randomUUID() : undefined));
    expect(burst.map((answer) => answer.status)).toEqual(Array.from({ length: BURST }, () => 201));

    for (const key of [undefined, randomUUID()]) {
      const refused = await place(greedy, key);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.body).toMatchObject({ status: 429, code: 'ORDERS.RATE_LIMITED' });
    }
    expect((await place(other)).status).toBe(201);
    expect(await ordersOf(greedy)).toBe(BURST);
    expect(await ordersOf(other)).toBe(1);

    // Once Retry-After has passed, the bucket has a token again.
    await waitFor(async () => (await place(greedy)).status === 201, {
      timeoutMs: 5000,
      intervalMs: 500,
      description: `${greedy} served again`,
    });
    expect(await ordersOf(greedy)).toBe(BURST + 1);
  });

  it('when a loyalty token names no customer (sub an array or empty), then loyalty refuses it with 401, as orders does', async () => {
    for (const sub of [['c1', 'c2'] as unknown as string, '']) {
      const token = await tokenFor({ sub, api: 'loyalty' });
      const answer = await requestJson('GET', `${loyalty.baseUrl}/balance`, { token });
      expect({ sub, status: answer.status }).toEqual({ sub, status: 401 });
      const placed = await requestJson('POST', `${orders.baseUrl}/orders`, {
        body: placeOrderPayload({ customerId: 'x', items: [{ sku: SKU, quantity: 1 }] }),
        token: await tokenFor({ sub, api: 'orders' }),
      });
      expect({ sub, status: placed.status }).toEqual({ sub, status: 401 });
    }
  });
});
