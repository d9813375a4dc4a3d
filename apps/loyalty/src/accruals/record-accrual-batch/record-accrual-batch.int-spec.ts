import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AccrualLimits } from '@libs/contracts';
import { customerToken, type ServiceProcess, serviceToken, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, requestJson, uniqueName } from '@tools/test-support';

/**
 * `POST /accruals/batch` as a real loyalty process on a test database: each accrual answered as
 * `POST /accruals` would answer it, at most one accrual per order whatever is sent again, one
 * malformed accrual refusing the batch with 400 naming it, and only inventory's scope let in.
 */
const { serverUrl } = testInfrastructure();

describe('loyalty accruals in batches over HTTP (real process, real Postgres)', () => {
  const services = new TestServices();
  let database: string;
  let loyalty: ServiceProcess;

  const accrual = (customerId: string, points = 12) => ({ customerId, orderId: randomUUID(), points });
  const command = <T extends { orderId: string }>(body: T) => ({ id: `loyalty-accrual:${body.orderId}`, body });
  const postBatch = async (commands: unknown, token?: string) =>
    requestJson('POST', `${loyalty.baseUrl}/accruals/batch`, { body: { commands }, token: token ?? (await serviceToken()) });
  const accrualsOf = async (orderIds: string[]) =>
    queryTestDatabase(
      serverUrl,
      database,
      'SELECT order_id::text, customer_id, points FROM accruals WHERE order_id = ANY($1) ORDER BY order_id',
      [orderIds],
    );

  beforeAll(async () => {
    database = await services.createDatabase('loyalty_batches');
    loyalty = await services.start({ service: 'loyalty', database });
  });

  afterAll(() => services.tearDown());

  it('when a batch of new accruals comes, then each is credited once and answered 201 with its accrual, in the order sent', async () => {
    const bodies = [accrual('batch-a', 10), accrual('batch-b', 20), accrual('batch-c', 30)];
    const response = await postBatch(bodies.map(command));

    expect(response.status).toBe(200);
    expect(response.body.results).toEqual(
      bodies.map((body) => ({
        id: `loyalty-accrual:${body.orderId}`,
        status: 201,
        body: expect.objectContaining({ ...body, id: expect.any(String) }),
      })),
    );
    expect(await accrualsOf(bodies.map((body) => body.orderId))).toEqual(
      [...bodies]
        .sort((a, b) => a.orderId.localeCompare(b.orderId))
        .map((body) => ({ order_id: body.orderId, customer_id: body.customerId, points: body.points })),
    );
  });

  it('when a batch credits an order, then its key is stored with its answer: a later POST /accruals under that key is replayed byte for byte', async () => {
    const body = accrual('key-stored', 17);
    const [result] = (await postBatch([command(body)])).body.results;
    const [stored] = await queryTestDatabase(
      serverUrl,
      database,
      'SELECT response_status, response_body::text AS text FROM idempotency_keys WHERE key = $1',
      [result.id],
    );
    expect(stored).toEqual({ response_status: 201, text: JSON.stringify(result.body) });

    const single = await requestJson('POST', `${loyalty.baseUrl}/accruals`, {
      body,
      headers: { 'idempotency-key': result.id },
      token: await serviceToken(),
    });
    expect(single.status).toBe(201);
    expect(single.headers.get('idempotent-replayed')).toBe('true');
    expect(single.body).toEqual(result.body);
  });

  it('when an accrual is refused as a mismatch, then its key is not stored, as POST /accruals stores none for a refusal', async () => {
    const credited = accrual('mismatch-key');
    await postBatch([command(credited)]);
    const refusedId = `other-key:${credited.orderId}`;
    const response = await postBatch([{ id: refusedId, body: { ...credited, points: credited.points + 5 } }]);
    expect(response.body.results[0].status).toBe(422);
    expect(await queryTestDatabase(serverUrl, database, 'SELECT key FROM idempotency_keys WHERE key = $1', [refusedId])).toEqual([]);
  });

  it('when the same batch is sent again (its answer was lost), then nothing is credited twice and each answer is the existing accrual', async () => {
    const bodies = [accrual('again-a'), accrual('again-b')];
    const first = await postBatch(bodies.map(command));
    // Sent again with one more: the dispatcher's next claim may hold other commands.
    const added = accrual('again-c');
    const again = await postBatch([...bodies, added].map(command));

    expect(again.status).toBe(200);
    expect(again.body.results.slice(0, 2)).toEqual(first.body.results.map((result: object) => ({ ...result, replayed: true })));
    expect(again.body.results[2]).toEqual({ id: `loyalty-accrual:${added.orderId}`, status: 201, body: expect.objectContaining(added) });
    expect(await accrualsOf([...bodies, added].map((body) => body.orderId))).toHaveLength(3);
  });

  it('when an order already credited is sent with other points, then that accrual alone is answered 422 ACCRUAL_MISMATCH and the others are credited', async () => {
    const credited = accrual('mismatch');
    await postBatch([command(credited)]);
    const other = accrual('mismatch-neighbour');
    const response = await postBatch([command({ ...credited, points: credited.points + 1 }), command(other)]);

    expect(response.status).toBe(200);
    expect(response.body.results[0]).toMatchObject({
      status: 422,
      body: { status: 422, code: 'LOYALTY.ACCRUAL_MISMATCH', fields: ['orderId'] },
    });
    expect(response.body.results[1]).toMatchObject({ status: 201, body: other });
    expect(await accrualsOf([credited.orderId])).toEqual([
      { order_id: credited.orderId, customer_id: credited.customerId, points: credited.points },
    ]);
  });

  it('when one order comes twice in a batch, then it is credited once and both answers say so', async () => {
    const body = accrual('twice');
    const response = await postBatch([command(body), command(body)]);

    expect(response.body.results.map((result: { status: number }) => result.status)).toEqual([201, 201]);
    expect(response.body.results[0].body).toEqual(response.body.results[1].body);
    expect(await accrualsOf([body.orderId])).toHaveLength(1);
  });

  it('when two batches name the same orders in opposite orders at the same time, then both are answered and each order is credited once', async () => {
    const bodies = Array.from({ length: 20 }, (_, n) => accrual(`race-${n}`));
    const [one, two] = await Promise.all([postBatch(bodies.map(command)), postBatch([...bodies].reverse().map(command))]);

    expect([one.status, two.status]).toEqual([200, 200]);
    for (const response of [one, two]) {
      // 503: credited by the other batch after this one's snapshot; the caller sends it again.
      expect(response.body.results.every((result: { status: number }) => result.status === 201 || result.status === 503)).toBe(true);
    }
    expect(await accrualsOf(bodies.map((body) => body.orderId))).toHaveLength(bodies.length);
  });

  it('when one accrual of a batch is malformed, then 400 names it and nothing of the batch is credited', async () => {
    const good = accrual('malformed-neighbour');
    const response = await postBatch([
      command(good),
      { id: uniqueName('bad'), body: { customerId: 'c', orderId: 'not-a-uuid', points: 0 } },
    ]);

    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual(expect.arrayContaining(['commands[1].body.orderId', 'commands[1].body.points']));
    // An id that could not be an Idempotency-Key is named too.
    const badId = await postBatch([{ id: 'no spaces allowed', body: accrual('bad-id') }]);
    expect(badId.status).toBe(400);
    expect(badId.body.fields).toEqual(['commands[0].id']);
    expect(await accrualsOf([good.orderId])).toEqual([]);
  });

  it(`when a batch is empty or holds more than ${AccrualLimits.batchMax} accruals, then 400 names commands`, async () => {
    for (const commands of [[], Array.from({ length: AccrualLimits.batchMax + 1 }, () => command(accrual('too-many')))]) {
      const response = await postBatch(commands);
      expect(response.status).toBe(400);
      expect(response.body.fields).toEqual(['commands']);
    }
  });

  it('when a customer (without the accruals scope) or nobody sends a batch, then 403 or 401 and nothing is credited', async () => {
    const body = accrual('not-inventory');
    expect((await postBatch([command(body)], await customerToken(body.customerId, 'loyalty'))).status).toBe(403);
    const anonymous = await requestJson('POST', `${loyalty.baseUrl}/accruals/batch`, { body: { commands: [command(body)] } });
    expect(anonymous.status).toBe(401);
    expect(await accrualsOf([body.orderId])).toEqual([]);
  });
});
