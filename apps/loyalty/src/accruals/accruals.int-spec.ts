import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LOYALTY_ACCRUALS_WRITE_SCOPE } from '@libs/contracts';
import {
  countRows,
  customerToken,
  listAccruals,
  type ServiceProcess,
  serviceToken,
  testInfrastructure,
  TestServices,
  tokenFor,
} from '@test/fixtures';
import { queryTestDatabase, requestJson, uniqueName } from '@tools/test-support';

/**
 * The loyalty service as a real process on a test database: `POST /accruals` demands an
 * Idempotency-Key, replays the stored answer for a repeated request, refuses the same key with
 * another body, and the key's primary key (not an application check) decides concurrent repeats.
 */
const { serverUrl } = testInfrastructure();

describe('loyalty accruals over HTTP (real process, real Postgres)', () => {
  const services = new TestServices();
  let database: string;
  let loyalty: ServiceProcess;

  const accrual = (customerId: string, points = 12) => ({ customerId, orderId: randomUUID(), points });
  /** As inventory sends it: its service token (client credentials, `loyalty:accruals:write`), unless another is given. */
  const post = async (body: unknown, key?: string, token?: string) =>
    requestJson('POST', `${loyalty.baseUrl}/accruals`, {
      body,
      headers: key ? { 'idempotency-key': key } : {},
      token: token ?? (await serviceToken()),
    });
  const accrualsOfOrder = async (orderId: string) =>
    Number((await queryTestDatabase(serverUrl, database, 'SELECT count(*)::int AS n FROM accruals WHERE order_id = $1', [orderId]))[0].n);

  beforeAll(async () => {
    database = await services.createDatabase('loyalty_accruals');
    loyalty = await services.start({ service: 'loyalty', database });
  });

  afterAll(() => services.tearDown());

  /** A token with the accruals scope for a caller that is not inventory. */
  const tokenForOtherService = () =>
    tokenFor({ sub: 'other-partner', clientId: 'other-partner', scopes: [LOYALTY_ACCRUALS_WRITE_SCOPE], api: 'loyalty' });

  it('when Idempotency-Key is missing, then 400 names the header and nothing is stored', async () => {
    const response = await post(accrual('no-key'));
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual(['Idempotency-Key']);
    expect(await countRows(serverUrl, database, ['accruals', 'idempotency_keys'])).toMatchObject({ accruals: 0, idempotency_keys: 0 });
  });

  it('when the body is invalid, then 400 names the field and the key stays unused', async () => {
    const key = uniqueName('loyalty-invalid');
    const response = await post({ customerId: 'c', orderId: 'not-a-uuid', points: 0 }, key);
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual(expect.arrayContaining(['orderId', 'points']));
    const stored = await queryTestDatabase(serverUrl, database, 'SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
    expect(stored).toEqual([]);
  });

  it('when the same key comes with the same body, then the stored response is replayed with Idempotent-Replayed: true and one accrual exists', async () => {
    const key = uniqueName('loyalty-accrual');
    const body = accrual('replayed');
    const first = await post(body, key);
    // Same request, fields in another order: the fingerprint is over canonical JSON.
    const again = await post({ points: body.points, orderId: body.orderId, customerId: body.customerId }, key);

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(first.body).toMatchObject(body);
    expect(await accrualsOfOrder(body.orderId)).toBe(1);
  });

  it('when the same key comes with another body, then 422 and the first accrual alone stands', async () => {
    const key = uniqueName('loyalty-accrual');
    const body = accrual('conflicting');
    expect((await post(body, key)).status).toBe(201);
    const conflict = await post({ ...body, points: body.points + 1 }, key);

    expect(conflict.status).toBe(422);
    expect(conflict.body).toMatchObject({ code: 'IDEMPOTENCY.KEY_REUSED', fields: ['Idempotency-Key'] });
    expect(await accrualsOfOrder(body.orderId)).toBe(1);
  });

  it('when ten requests with one key race, then the key decides: one accrual, one executed answer, nine replays of it', async () => {
    const key = uniqueName('loyalty-race');
    const body = accrual('racing');
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(body, key)));

    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect(responses.filter((response) => response.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    for (const response of responses) expect(response.body).toEqual(responses[0].body);
    expect(await accrualsOfOrder(body.orderId)).toBe(1);
  });

  it('when two Idempotency-Keys credit one order, then one accrual stands and the second answer is that accrual', async () => {
    const body = accrual('two-keys');
    const first = await post(body, uniqueName('loyalty-first-key'));
    const second = await post(body, uniqueName('loyalty-second-key'));
    expect(first.status).toBe(201);
    expect(second).toMatchObject({ status: 201, body: { id: first.body.id, orderId: body.orderId, points: body.points } });
    expect(await accrualsOfOrder(body.orderId)).toBe(1);
  });

  it('when an accrual names an order already credited with other points, then 422 LOYALTY.ACCRUAL_MISMATCH names orderId and the first stands', async () => {
    const body = accrual('mismatch', 10);
    expect((await post(body, uniqueName('loyalty-credit'))).status).toBe(201);
    const refused = await post({ ...body, points: 99 }, uniqueName('loyalty-recredit'));
    expect(refused).toMatchObject({ status: 422, body: { code: 'LOYALTY.ACCRUAL_MISMATCH', fields: ['orderId'] } });
    expect(await accrualsOfOrder(body.orderId)).toBe(1);
  });

  it('when the cursor decodes to an impossible date, then 400 names cursor (not a 500 from Postgres)', async () => {
    const token = await customerToken(uniqueName('cursor-probe'), 'loyalty');
    for (const createdAt of ['2024-02-30 10:00:00+00', '2024-13-01 10:00:00+00', '2024-01-01 24:00:00+00', '0000-01-01 00:00:00+00']) {
      const cursor = Buffer.from(JSON.stringify([createdAt, randomUUID()])).toString('base64url');
      const response = await requestJson('GET', `${loyalty.baseUrl}/accruals?cursor=${cursor}`, { token });
      expect({ createdAt, status: response.status, fields: response.body.fields }).toEqual({ createdAt, status: 400, fields: ['cursor'] });
    }
  });

  it("when accruals are listed by customer, then only that customer's are returned, oldest first, with their total", async () => {
    const customerId = uniqueName('customer');
    const bodies = [accrual(customerId, 5), accrual(customerId, 7)];
    for (const body of bodies) expect((await post(body, uniqueName('loyalty-list'))).status).toBe(201);
    expect((await post(accrual(uniqueName('someone-else'), 99), uniqueName('loyalty-list'))).status).toBe(201);

    const listed = await listAccruals(loyalty.baseUrl, customerId);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ customerId, totalPoints: 12 });
    expect(listed.body.items.map((item) => item.orderId)).toEqual(bodies.map((body) => body.orderId));
  });

  it("when a customer asks for another customer's accruals by query, then 400 names customerId: the list is always the caller's own", async () => {
    const victim = uniqueName('victim');
    expect((await post(accrual(victim, 40), uniqueName('loyalty-victim'))).status).toBe(201);

    const response = await requestJson('GET', `${loyalty.baseUrl}/accruals?customerId=${encodeURIComponent(victim)}`, {
      token: await customerToken(uniqueName('snoop'), 'loyalty'),
    });

    expect(response.status).toBe(400);
    expect(response.body.fields).toContain('customerId');
  });

  it('when a customer token credits points, then 403 AUTH.FORBIDDEN and nothing is stored: only the accruals scope may', async () => {
    const body = accrual('self-credit', 1000);
    const response = await post(body, uniqueName('loyalty-self'), await customerToken('self-credit', 'loyalty'));

    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.code).toBe('AUTH.FORBIDDEN');
    expect(await accrualsOfOrder(body.orderId)).toBe(0);
  });

  it("when someone else claims inventory's key first (with another body), then inventory's request with that key still credits its accrual", async () => {
    const body = accrual('key-race');
    const key = `loyalty-accrual:${body.orderId}`;
    // Another caller (with the scope, so it gets past the guard) uses the key first: under a
    // global key inventory would now get 422 and park its command.
    const squatter = await tokenForOtherService();
    expect((await post(accrual('squatter', 1), key, squatter)).status).toBe(201);

    const real = await post(body, key);

    expect(real.status).toBe(201);
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect(real.body).toMatchObject(body);
  });

  it('when a customer has more accruals than a page, then pages of 50 (at most 100) follow the cursor with none skipped or repeated, and the total is of all', async () => {
    const customerId = uniqueName('many-accruals');
    // One statement: all 120 share one created_at, so the order within it rests on the id alone.
    await queryTestDatabase(
      serverUrl,
      database,
      'INSERT INTO accruals (customer_id, order_id, points) SELECT $1, gen_random_uuid(), n FROM generate_series(1, 120) AS n',
      [customerId],
    );
    // The caller's own accruals: the customer is the token's subject, never a query parameter.
    const token = await customerToken(customerId, 'loyalty');
    const list = (query: string) => requestJson('GET', `${loyalty.baseUrl}/accruals?${query.replace(/^&/, '')}`, { token });

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(cursor ? `&cursor=${cursor}` : '');
      expect({ status: page.status, totalPoints: page.body.totalPoints }).toEqual({ status: 200, totalPoints: (120 * 121) / 2 });
      sizes.push(page.body.items.length);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([50, 50, 20]);
    expect(new Set(seen).size).toBe(120);

    expect((await list('&limit=100')).body.items).toHaveLength(100);
    const tooMany = await list('&limit=101');
    expect({ status: tooMany.status, fields: tooMany.body.fields }).toEqual({ status: 400, fields: ['limit'] });
    const forged = await list(`&cursor=${Buffer.from('["now()", "x"]').toString('base64url')}`);
    expect({ status: forged.status, fields: forged.body.fields }).toEqual({ status: 400, fields: ['cursor'] });
  });
});
