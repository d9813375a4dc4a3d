import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { customerToken, type ServiceProcess, serviceToken, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, requestJson, uniqueName } from '@tools/test-support';

/**
 * Loyalty's compensation as a real process on a test database: `POST /reversals` takes back an
 * order's accrual at most once (the unique `order_id` decides, whatever the key), refuses a reversal
 * that arrives before its accrual with a retryable 409 and records nothing, refuses one that does not
 * match the accrual, and `GET /balance` is accrued - reversed.
 */
const { serverUrl } = testInfrastructure();

describe('loyalty reversals and balances over HTTP (real process, real Postgres)', () => {
  const services = new TestServices();
  let database: string;
  let loyalty: ServiceProcess;

  const post = async (path: '/accruals' | '/reversals', body: unknown, key: string) =>
    requestJson('POST', `${loyalty.baseUrl}${path}`, { body, headers: { 'idempotency-key': key }, token: await serviceToken() });
  const accrue = async (customerId: string, points: number) => {
    const body = { customerId, orderId: randomUUID(), points };
    expect((await post('/accruals', body, `loyalty-accrual:${body.orderId}`)).status).toBe(201);
    return body;
  };
  const reversalsOf = async (orderId: string) =>
    Number((await queryTestDatabase(serverUrl, database, 'SELECT count(*)::int AS n FROM reversals WHERE order_id = $1', [orderId]))[0].n);
  const balanceOf = async (customerId: string) =>
    (await requestJson('GET', `${loyalty.baseUrl}/balance`, { token: await customerToken(customerId, 'loyalty') })).body;

  beforeAll(async () => {
    database = await services.createDatabase('loyalty_reversals');
    loyalty = await services.start({ service: 'loyalty', database });
  });

  afterAll(() => services.tearDown());

  it('when an accrued order is reversed, then one reversal of its points exists and the balance is accrued - reversed', async () => {
    const customerId = uniqueName('reversed');
    const kept = await accrue(customerId, 7);
    const cancelled = await accrue(customerId, 30);

    const reversed = await post('/reversals', cancelled, `loyalty-reversal:${cancelled.orderId}`);

    expect(reversed.status).toBe(201);
    expect(reversed.body).toMatchObject(cancelled);
    expect(await reversalsOf(cancelled.orderId)).toBe(1);
    expect(await reversalsOf(kept.orderId)).toBe(0);
    expect(await balanceOf(customerId)).toEqual({ customerId, accruedPoints: 37, reversedPoints: 30, balancePoints: 7 });
  });

  it('when the same reversal is sent again, under its key or another, then it answers the one reversal and no second exists', async () => {
    const body = await accrue(uniqueName('twice'), 12);
    const first = await post('/reversals', body, `loyalty-reversal:${body.orderId}`);
    const replayed = await post('/reversals', body, `loyalty-reversal:${body.orderId}`);
    const otherKey = await post('/reversals', body, uniqueName('another-key'));

    expect([first.status, replayed.status, otherKey.status]).toEqual([201, 201, 201]);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(otherKey.body).toEqual(first.body);
    expect(await reversalsOf(body.orderId)).toBe(1);
  });

  it('when ten reversals of one order race under ten keys, then the unique order_id decides: one reversal, every answer the same', async () => {
    const body = await accrue(uniqueName('race'), 5);
    const responses = await Promise.all(Array.from({ length: 10 }, () => post('/reversals', body, uniqueName('race-key'))));

    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    for (const response of responses) expect(response.body).toEqual(responses[0].body);
    expect(await reversalsOf(body.orderId)).toBe(1);
  });

  it('when a reversal arrives before its accrual, then 409 LOYALTY.ACCRUAL_NOT_FOUND, nothing is recorded, and the same key succeeds once the accrual exists', async () => {
    const customerId = uniqueName('early');
    const body = { customerId, orderId: randomUUID(), points: 9 };
    const key = `loyalty-reversal:${body.orderId}`;

    const early = await post('/reversals', body, key);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'LOYALTY.ACCRUAL_NOT_FOUND' });
    expect(await reversalsOf(body.orderId)).toBe(0);
    expect(await queryTestDatabase(serverUrl, database, 'SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).toEqual([]);

    expect((await post('/accruals', body, `loyalty-accrual:${body.orderId}`)).status).toBe(201);
    expect((await post('/reversals', body, key)).status).toBe(201);
    expect(await balanceOf(customerId)).toMatchObject({ accruedPoints: 9, reversedPoints: 9, balancePoints: 0 });
  });

  it("when a reversal's points or customer differ from the accrual, then 422 LOYALTY.REVERSAL_MISMATCH and nothing is reversed", async () => {
    const body = await accrue(uniqueName('mismatch'), 20);

    const morePoints = await post('/reversals', { ...body, points: 21 }, uniqueName('mismatch-key'));
    const otherCustomer = await post('/reversals', { ...body, customerId: uniqueName('someone-else') }, uniqueName('mismatch-key'));

    expect(morePoints.status).toBe(422);
    expect(morePoints.body).toMatchObject({ code: 'LOYALTY.REVERSAL_MISMATCH', fields: ['points'] });
    expect(otherCustomer.status).toBe(422);
    expect(await reversalsOf(body.orderId)).toBe(0);
  });

  it('when a reversal has no Idempotency-Key or an invalid body, then 400 names it', async () => {
    const missingKey = await requestJson('POST', `${loyalty.baseUrl}/reversals`, {
      body: { customerId: 'c', orderId: randomUUID(), points: 1 },
      token: await serviceToken(),
    });
    expect(missingKey.status).toBe(400);
    expect(missingKey.body.fields).toEqual(['Idempotency-Key']);
    const invalid = await post('/reversals', { customerId: 'c', orderId: 'not-a-uuid', points: 0 }, uniqueName('invalid-key'));
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual(expect.arrayContaining(['orderId', 'points']));
  });

  it("when a customer has no points at all, then the balance is zero; another customer's id in the query is 400, and no token is 401", async () => {
    const customerId = uniqueName('nobody');
    expect(await balanceOf(customerId)).toEqual({ customerId, accruedPoints: 0, reversedPoints: 0, balancePoints: 0 });
    const other = await requestJson('GET', `${loyalty.baseUrl}/balance?customerId=someone-else`, {
      token: await customerToken(customerId, 'loyalty'),
    });
    expect(other.status).toBe(400);
    expect(other.body.fields).toContain('customerId');
    expect((await requestJson('GET', `${loyalty.baseUrl}/balance`)).status).toBe(401);
  });

  it('when a customer token posts a reversal, then it is refused 403 and nothing is reversed', async () => {
    const customerId = uniqueName('self-reverser');
    const kept = await accrue(customerId, 5);
    const response = await requestJson('POST', `${loyalty.baseUrl}/reversals`, {
      body: kept,
      headers: { 'idempotency-key': `loyalty-reversal:${kept.orderId}` },
      token: await customerToken(customerId, 'loyalty'),
    });
    expect(response.status).toBe(403);
    expect(await reversalsOf(kept.orderId)).toBe(0);
  });
});
