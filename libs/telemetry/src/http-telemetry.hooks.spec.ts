import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fastify, type FastifyInstance } from 'fastify';
import { configureLogging } from './app-logger.js';
import { httpTelemetry, omitRequestLine } from './http-telemetry.hooks.js';
import { startTracing } from './tracing.js';

await startTracing({ serviceName: 'unit', otlpEndpoint: '' });

/**
 * The request log on a real Fastify instance (in-process `inject`, no socket): one line per
 * request, at error for a 5xx, and none for a request a later hook named with `omitRequestLine`,
 * as the door does for its 503s.
 */
describe('httpTelemetry request lines', () => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;

  beforeAll(async () => {
    configureLogging({ service: 'unit', level: 'info', format: 'json' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    app = fastify();
    httpTelemetry(app);
    // A door of its own: answers /shed from onRequest, after the telemetry hook, as the load shedding does.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.url !== '/shed') return done();
      omitRequestLine(request);
      void reply.code(503).send({ refused: true });
    });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/shed', async () => ({ never: true }));
    app.get('/fail', async (_request, reply) => reply.code(503).send({ failed: true }));
    await app.ready();
  });

  afterAll(() => app.close());

  const requestLines = () => lines.filter((line) => line.msg === 'http request');

  it('when a request is answered, then it has one line with its route and status', async () => {
    lines.length = 0;
    expect((await app.inject({ url: '/ok' })).statusCode).toBe(200);
    expect(requestLines()).toEqual([expect.objectContaining({ level: 30, method: 'GET', route: '/ok', status: 200 })]);
  });

  it('when a request gets a 5xx of its handler, then its line is at error', async () => {
    lines.length = 0;
    expect((await app.inject({ url: '/fail' })).statusCode).toBe(503);
    expect(requestLines()).toEqual([expect.objectContaining({ level: 50, route: '/fail', status: 503 })]);
  });

  it('when a hook named the request with omitRequestLine, then it is answered and has no line', async () => {
    lines.length = 0;
    const answer = await app.inject({ url: '/shed' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ refused: true });
    expect(requestLines()).toEqual([]);
    // The next request, not named, has its line again.
    await app.inject({ url: '/ok' });
    expect(requestLines()).toEqual([expect.objectContaining({ route: '/ok', status: 200 })]);
  });
});
