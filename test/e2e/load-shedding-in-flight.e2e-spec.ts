import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { countRows, customerToken, jsonLines, placeOrderPayload, scrapeMetric, seedPrices, TestServices } from '@test/fixtures';
import { type JsonResponse, queryTestDatabase, requestJson, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { type HeldAnswer, holdRequest } from '../support/held-request.js';

/**
 * The per-request door, on a real orders process: a flood of concurrent `POST /orders`, more than
 * the in-flight bound admits (a floor of 4, a target latency so low that the floor is the bound),
 * is partly refused at once with 503 problem+json and Retry-After on `in_flight`; every 201 order
 * exists exactly once, with its outbox row and idempotency key, and a 503 wrote nothing. Then the
 * door held full on purpose (requests still sending their bodies): what arrives is refused before
 * its token is checked or its body read, and once they finish the same request meets both checks.
 * The log counts the refusals together (one line per LOG_INTERVAL_MS at most), none on a line of
 * its own.
 */
const IN_FLIGHT_MIN = 4;
const FLOOD = 80;
const LOG_INTERVAL_MS = 2000;

/** The shed log's lines in a process's output, and the refusals they count together. */
function shedLines(logs: string): { lines: number; refusals: number } {
  const counts = [...logs.matchAll(/Shed (\d+) requests? with 503 SERVER\.OVERLOADED/g)].map((match) => Number(match[1]));
  return { lines: counts.length, refusals: counts.reduce((sum, count) => sum + count, 0) };
}

describe('load shedding in flight (orders as a real process, flooded by concurrent requests)', () => {
  const services = new TestServices();
  const { infrastructure } = services;
  const sku = uniqueSku('FLOOD');
  let orders: ServiceProcess;
  let database: string;

  beforeAll(async () => {
    database = await services.createDatabase('load_shedding_in_flight');
    orders = await services.start({
      service: 'orders',
      database,
      env: {
        LOAD_SHED_ENABLED: 'true',
        LOAD_SHED_IN_FLIGHT_MIN: String(IN_FLIGHT_MIN),
        LOAD_SHED_TARGET_LATENCY_MS: '10',
        LOAD_SHED_RETRY_AFTER_SECONDS: '3',
        LOAD_SHED_LOG_INTERVAL_MS: String(LOG_INTERVAL_MS),
      },
    });
    await seedPrices(infrastructure.serverUrl, database, { [sku]: 100 });
  });

  afterAll(() => services.tearDown());

  it('when more requests arrive at once than the in-flight bound, then some answer 503 at once and every 201 order exists once', async () => {
    const customerId = uniqueName('flood-customer');
    const token = await customerToken(customerId);
    const floodStarted = performance.now();
    const answers = await Promise.all(
      Array.from({ length: FLOOD }, async () => {
        const idempotencyKey = randomUUID();
        const response: JsonResponse = await requestJson('POST', `${orders.baseUrl}/orders`, {
          body: placeOrderPayload({ customerId, items: [{ sku, quantity: 1 }] }),
          headers: { 'Idempotency-Key': idempotencyKey },
          token,
          timeoutMs: 60_000,
        });
        return { response, idempotencyKey };
      }),
    );
    const floodMs = performance.now() - floodStarted;
    const created = answers.filter((answer) => answer.response.status === 201);
    const shed = answers.filter((answer) => answer.response.status === 503);
    expect(created.length + shed.length).toBe(FLOOD);
    expect(created.length).toBeGreaterThanOrEqual(IN_FLIGHT_MIN);
    expect(shed.length).toBeGreaterThan(0);

    for (const { response } of shed) {
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.headers.get('retry-after')).toBe('3');
      // Answered by the door itself, after the hooks that set the security headers on every answer.
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.body).toMatchObject({ status: 503, code: 'SERVER.OVERLOADED' });
      expect(response.body.detail).toContain(`past its bound of ${IN_FLIGHT_MIN}`);
    }
    const ids = created.map((answer) => answer.response.body.id as string);
    expect(new Set(ids).size).toBe(created.length);
    const rows = await queryTestDatabase<{ id: string }>(
      infrastructure.serverUrl,
      database,
      'SELECT id FROM orders WHERE customer_id = $1',
      [customerId],
    );
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    const keys = await queryTestDatabase<{ key: string }>(infrastructure.serverUrl, database, 'SELECT key FROM idempotency_keys', []);
    const storedKeys = new Set(keys.map((row) => row.key));
    for (const { idempotencyKey } of shed) expect(storedKeys.has(idempotencyKey)).toBe(false);
    expect(await countRows(infrastructure.serverUrl, database, ['orders', 'outbox_messages', 'idempotency_keys'])).toEqual({
      orders: created.length,
      outbox_messages: created.length,
      idempotency_keys: created.length,
    });
    expect(await scrapeMetric(orders.baseUrl, 'http_requests_shed_total', { signal: 'in_flight' })).toBe(shed.length);
    // Refused before Fastify routes them (the front door) or by its hook, every 503 counts in the
    // request metric as any other answer does.
    expect(await scrapeMetric(orders.baseUrl, 'http_request_duration_seconds_count', { route: '/orders', status: '503' })).toBe(
      shed.length,
    );

    // Every refusal is counted in the log, on a line that names the figure past its bound: the
    // first at once, the rest together once the interval has passed, so at most one line for the
    // start and one per interval the flood lasted, and no request line of its own.
    await waitFor(() => shedLines(orders.process.logs).refusals === shed.length, {
      timeoutMs: LOG_INTERVAL_MS + 30_000,
      description: `the shed log to count ${shed.length} refusals (it counted ${shedLines(orders.process.logs).refusals})`,
    });
    expect(shedLines(orders.process.logs).lines).toBeLessThanOrEqual(2 + Math.ceil(floodMs / LOG_INTERVAL_MS));
    expect(orders.process.logs).toContain(`in_flight is`);
    const requestLines = (status: number) =>
      jsonLines(orders.process.logs).filter((line) => line.msg === 'http request' && line.status === status);
    // Read from the process's output as it arrives: the 201s' lines are waited for, not assumed read.
    await waitFor(() => requestLines(201).length === created.length, {
      timeoutMs: 30_000,
      description: `a request line for each of the ${created.length} orders created`,
    });
    expect(requestLines(503)).toEqual([]);
  });

  it('when the in-flight bound is taken by requests still sending their bodies, then a forged token and a malformed body get 503, not 401 or 400, and once the bodies finish they meet both checks', async () => {
    const customerId = uniqueName('held-customer');
    const token = await customerToken(customerId);
    const before = await countRows(infrastructure.serverUrl, database, ['orders', 'outbox_messages', 'idempotency_keys']);
    const shedBefore = await scrapeMetric(orders.baseUrl, 'http_requests_shed_total', { signal: 'in_flight' });
    const held = Array.from({ length: IN_FLIGHT_MIN }, () =>
      holdRequest(`${orders.baseUrl}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
        body: JSON.stringify(placeOrderPayload({ customerId, items: [{ sku, quantity: 1 }] })),
      }),
    );
    let finished: HeldAnswer[];
    try {
      // The gauge is sampled: once it shows the bound taken, it stays taken until the bodies finish.
      await waitFor(async () => (await scrapeMetric(orders.baseUrl, 'load_shed_backlog', { signal: 'in_flight' })) === IN_FLIGHT_MIN, {
        timeoutMs: 30_000,
        description: `${IN_FLIGHT_MIN} held requests in flight`,
      });

      const forgedToken = await requestJson('POST', `${orders.baseUrl}/orders`, {
        body: placeOrderPayload({ customerId, items: [{ sku, quantity: 1 }] }),
        headers: { 'Idempotency-Key': randomUUID() },
        token: 'forged.not-a.token',
      });
      const malformedBody = await requestJson('POST', `${orders.baseUrl}/orders`, {
        rawBody: '{"items": [',
        headers: { 'Idempotency-Key': randomUUID() },
        token,
      });
      const noTokenNoKey = await requestJson('POST', `${orders.baseUrl}/orders`, { rawBody: 'not json' });
      for (const refused of [forgedToken, malformedBody, noTokenNoKey]) {
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ status: 503, code: 'SERVER.OVERLOADED' });
        expect(refused.body.detail).toContain(`past its bound of ${IN_FLIGHT_MIN}`);
      }
      expect(await scrapeMetric(orders.baseUrl, 'http_requests_shed_total', { signal: 'in_flight' })).toBe(shedBefore + 3);
    } finally {
      // Finished whatever happened above, so the held requests never outlive the test.
      finished = await Promise.all(held.map((request) => request.finish()));
    }
    expect(finished.map((answer) => answer.status)).toEqual(Array.from({ length: IN_FLIGHT_MIN }, () => 201));

    expect(await countRows(infrastructure.serverUrl, database, ['orders', 'outbox_messages', 'idempotency_keys'])).toEqual({
      orders: before.orders + IN_FLIGHT_MIN,
      outbox_messages: before.outbox_messages + IN_FLIGHT_MIN,
      idempotency_keys: before.idempotency_keys + IN_FLIGHT_MIN,
    });
    // The door open again, the same requests meet the checks the door spared them.
    const forgedAfter = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: placeOrderPayload({ customerId, items: [{ sku, quantity: 1 }] }),
      headers: { 'Idempotency-Key': randomUUID() },
      token: 'forged.not-a.token',
    });
    expect(forgedAfter.status).toBe(401);
    const malformedAfter = await requestJson('POST', `${orders.baseUrl}/orders`, {
      rawBody: '{"items": [',
      headers: { 'Idempotency-Key': randomUUID() },
      token,
    });
    expect(malformedAfter.status).toBe(400);
  });
});
