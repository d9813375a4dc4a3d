import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { waitFor } from '@tools/test-support';
import { answerBeforeRouting } from '../before-routing.js';
import { httpServerOptions } from '../http-server.options.js';
import { securityHeaders } from '../security-headers.hook.js';
import type { BacklogReading } from './backlog-reading.js';
import { BacklogSampler } from './backlog-sampler.js';
import { FrontDoor, type FrontDoorRefusal } from './front-door.js';
import { loadSheddingHook, SHED_ROUTE_CONFIG } from './load-shedding.hook.js';

/**
 * The front door on a real Fastify server listening on loopback, built as the apps build theirs
 * (`httpServerOptions`, the security headers first, the door's hook last): what it answers, what it
 * leaves to Fastify, and that a request goes through one door only.
 */
const shed = { config: { [SHED_ROUTE_CONFIG]: true } };

interface Door {
  baseUrl: string;
  sampler: BacklogSampler;
  /** Requests that reached Fastify's onResponse hook, by path. */
  reachedFastify: string[];
  refusals: FrontDoorRefusal[];
  /** Sets what the sampler's one probe reads from its next read on. */
  backlog: (reading: BacklogReading) => Promise<void>;
  /** Lets the held `POST /orders` handlers answer. */
  release: () => void;
}

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function door(options: { holdOrders?: boolean; minInFlight?: number } = {}): Promise<Door> {
  let reading: BacklogReading = { signal: 'orders_pending', value: 0, bound: 10 };
  const sampler = new BacklogSampler(
    {
      enabled: true,
      intervalMs: 60_000,
      retryAfterSeconds: 2,
      logIntervalMs: 60_000,
      inFlight: { targetLatencyMs: 1, minInFlight: options.minInFlight ?? 100 },
      probes: [{ read: async () => [reading] }],
    },
    new Registry(),
  );
  const refusals: FrontDoorRefusal[] = [];
  const reachedFastify: string[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  app = fastify(
    httpServerOptions({
      HTTP_REQUEST_TIMEOUT_MS: 10_000,
      HTTP_CONNECTION_TIMEOUT_MS: 10_000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000,
      HTTP_MAX_CONNECTIONS: 100,
    }),
  );
  const frontDoor = new FrontDoor(sampler, (refusal) => refusals.push(refusal));
  expect(answerBeforeRouting(app.server, frontDoor.answer)).toBe(true);
  app.addHook('onRequest', securityHeaders());
  app.addHook('onRequest', loadSheddingHook(sampler, frontDoor));
  app.addHook('onResponse', (request, _reply, done) => {
    reachedFastify.push(request.url);
    done();
  });
  app.post('/orders', shed, async (_request, reply) => {
    if (options.holdOrders) await released;
    return reply.code(201).send({ created: true });
  });
  app.post('/orders/:id/cancel', shed, async () => ({ cancelled: true }));
  app.get('/orders', async () => ({ list: [] }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sampler,
    reachedFastify,
    refusals,
    backlog: async (next) => {
      reading = next;
      await sampler.sample();
    },
    release,
  };
}

async function post(url: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"items":[]}' });
  const headers = Object.fromEntries(response.headers);
  // The clock's header is the one that may differ between two answers a second apart.
  delete headers.date;
  return { status: response.status, headers, body: await response.text() };
}

describe('FrontDoor, before Fastify routes a request', () => {
  it('when the door is closed, then a refusal met before routing is the very answer the hook gives, and Fastify never sees it', async () => {
    const d = await door();
    await d.backlog({ signal: 'orders_pending', value: 12, bound: 10 });
    const byHook = await post(`${d.baseUrl}/orders`);
    expect(d.reachedFastify).toEqual(['/orders']);
    const byFrontDoor = await post(`${d.baseUrl}/orders`);
    expect(d.reachedFastify).toEqual(['/orders']);
    expect(byHook.status).toBe(503);
    expect(byHook.headers['x-content-type-options']).toBe('nosniff');
    expect(byHook.headers['retry-after']).toBe('2');
    expect(JSON.parse(byHook.body)).toMatchObject({ status: 503, code: 'SERVER.OVERLOADED' });
    expect(byFrontDoor).toEqual(byHook);
    expect(d.refusals).toEqual([{ method: 'POST', route: '/orders', seconds: expect.any(Number) }]);
    expect(await d.sampler.shed.get()).toMatchObject({ values: [{ labels: { signal: 'orders_pending' }, value: 2 }] });
  });

  it('when the door is open, then a request admitted before routing counts in flight once, until its answer, and the hook lets it pass', async () => {
    const d = await door({ holdOrders: true });
    // The first request teaches the front door the route, and is admitted by the hook.
    const first = post(`${d.baseUrl}/orders`);
    await waitFor(() => d.sampler.inFlight.reading().value === 1, { timeoutMs: 10_000, description: 'one request in flight' });
    const second = post(`${d.baseUrl}/orders`);
    await waitFor(() => d.sampler.inFlight.reading().value === 2, { timeoutMs: 10_000, description: 'two requests in flight' });
    d.release();
    expect((await first).status).toBe(201);
    expect((await second).status).toBe(201);
    await waitFor(() => d.sampler.inFlight.reading().value === 0, { timeoutMs: 10_000, description: 'no request in flight' });
    expect(d.reachedFastify).toEqual(['/orders', '/orders']);
  });

  it('when the in-flight bound is taken, then the next request is refused before routing on in_flight', async () => {
    const d = await door({ holdOrders: true, minInFlight: 1 });
    const held = post(`${d.baseUrl}/orders`);
    await waitFor(() => d.sampler.inFlight.reading().value === 1, { timeoutMs: 10_000, description: 'one request in flight' });
    const refused = await post(`${d.baseUrl}/orders?source=retry`);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).detail).toContain('in_flight is 2, past its bound of 1');
    // The query string does not hide the learnt path, and the refusal never reached Fastify.
    expect(d.reachedFastify).toEqual([]);
    d.release();
    expect((await held).status).toBe(201);
  });

  it('when a shed route has parameters, or a route is not shed, then the front door leaves it to Fastify', async () => {
    const d = await door();
    await d.backlog({ signal: 'orders_pending', value: 12, bound: 10 });
    const cancels = [await post(`${d.baseUrl}/orders/a1/cancel`), await post(`${d.baseUrl}/orders/a1/cancel`)];
    expect(cancels.map((answer) => answer.status)).toEqual([503, 503]);
    const lists = [await fetch(`${d.baseUrl}/orders`), await fetch(`${d.baseUrl}/orders`)];
    expect(lists.map((answer) => answer.status)).toEqual([200, 200]);
    expect(d.reachedFastify).toEqual(['/orders/a1/cancel', '/orders/a1/cancel', '/orders', '/orders']);
    expect(d.refusals).toEqual([]);
  });

  it('when the server was not made by httpServerOptions, then nothing can answer before Fastify', () => {
    const server = createServer();
    expect(answerBeforeRouting(server, () => true)).toBe(false);
  });
});
