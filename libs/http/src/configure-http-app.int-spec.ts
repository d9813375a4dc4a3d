import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, HttpCode, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { z } from 'zod';
import { requestJson } from '@tools/test-support';
import { configureHttpApp } from './configure-http-app.js';
import { type HttpServerConfig, httpServerOptions } from './http-server.options.js';
import { PROBLEM_JSON } from './problem-details.js';
import { Satisfies } from './satisfies.decorator.js';
import { MAX_REPORTED_PROBLEMS } from './validation.pipe.js';

/**
 * The bounds every app's HTTP side gets from `configureHttpApp`, proven on a
 * real Fastify server with a request class shaped like an order (a bounded list of validated
 * lines). No database: nothing here reaches one.
 */
const LINES_MAX = 50;

/** The defaults of `httpEnv`. */
const DEFAULT_BOUNDS: HttpServerConfig = {
  HTTP_REQUEST_TIMEOUT_MS: 10_000,
  HTTP_CONNECTION_TIMEOUT_MS: 60_000,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 72_000,
  HTTP_MAX_CONNECTIONS: 1024,
};

/** Resolves with how long after `start` the server closed `socket`, or 'open' when it still is at `deadlineMs`. */
function closedWithin(socket: Socket, deadlineMs: number, start = Date.now()): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), deadlineMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - start);
    });
  });
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
    // Read (and drop) the answers: a paused socket never sees the server's end, so never closes.
    socket.resume();
  });
}

class LineRequest {
  @Satisfies(z.string().min(1).max(20))
  sku: string;

  @Satisfies(z.number().int().min(1).max(1000))
  quantity: number;
}

class ListRequest {
  @Satisfies(z.array(z.unknown()).min(1).max(LINES_MAX), { type: [LineRequest] })
  @ValidateNested({ each: true })
  @Type(() => LineRequest)
  items: LineRequest[];
}

@Controller('things')
class ThingsController {
  @Post()
  @HttpCode(201)
  create(@Body() request: ListRequest) {
    return { lines: request.items.length };
  }

  @Post('touch')
  @HttpCode(204)
  touch() {}

  @Get()
  list() {
    return { items: [] };
  }

  @Get(':id')
  one(@Param('id') id: string) {
    return { id };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('configureHttpApp bounds and headers (real HTTP server)', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(httpServerOptions(DEFAULT_BOUNDS)), {
      logger: false,
    });
    configureHttpApp(app, { bodyLimitBytes: 65_536, docs: { title: 'things', description: 'test app' } });
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
  });

  const post = (body: unknown) => requestJson('POST', `${baseUrl}/things`, { body });
  const line = { sku: 'A', quantity: 1 };

  it('when the body is valid, then it is accepted (the bounds below refuse only what exceeds them)', async () => {
    expect(await post({ items: [line, line] })).toMatchObject({ status: 201, body: { lines: 2 } });
  });

  it('when a list holds 21,000 empty items in 64 KiB, then the answer is ONE problem naming the list and its limit, not one per item', async () => {
    const response = await post({ items: Array.from({ length: 21_000 }, () => ({})) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'REQUEST.VALIDATION_FAILED', fields: ['items'] });
    expect(response.body.errors).toEqual([
      { field: 'items', detail: `items must contain at most ${LINES_MAX} entries, got 21000; its entries were not checked` },
    ]);
    expect(response.text.length).toBeLessThan(2_000);
  });

  it('when a list within its bound has more problems than the cap, then the first ones are reported with truncated: true and the count', async () => {
    // 50 lines, each with two bad fields and an unknown one: 150 problems.
    const response = await post({ items: Array.from({ length: LINES_MAX }, () => ({ sku: '', quantity: 0, extra: 1 })) });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(MAX_REPORTED_PROBLEMS);
    expect(response.body).toMatchObject({ truncated: true, problemCount: 150 });
    expect(response.body.detail).toMatch(/; and 130 more problems$/);
  });

  it('when a list within its bound has a few problems, then every one is reported and nothing says truncated', async () => {
    const response = await post({ items: [line, { sku: 'B', quantity: 0 }] });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual(['items[1].quantity']);
    expect(response.body).not.toHaveProperty('truncated');
  });

  it.each([
    ['arrays', `{"items":${'['.repeat(30_000)}${']'.repeat(30_000)}}`],
    ['objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ])(
    'when the JSON body nests %s thousands of levels deep, then the answer is 400 REQUEST.BODY_TOO_DEEP, never 500',
    async (_kind, rawBody) => {
      const response = await requestJson('POST', `${baseUrl}/things`, { rawBody });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain(PROBLEM_JSON);
      expect(response.body).toMatchObject({ code: 'REQUEST.BODY_TOO_DEEP', fields: ['body'] });
    },
  );

  // Body object, items array, line object: 3 levels; an unknown field nesting arrays adds the rest.
  const nestedLine = (arrays: number) => `{"items":[{"sku":"A","quantity":1,"x":${'['.repeat(arrays)}${']'.repeat(arrays)}}]}`;

  it('when a JSON body nests exactly 32 levels, then the depth check lets it through to validation; at 33 it does not', async () => {
    const at = await requestJson('POST', `${baseUrl}/things`, { rawBody: nestedLine(29) });
    expect({ status: at.status, code: at.body.code, fields: at.body.fields }).toEqual({
      status: 400,
      code: 'REQUEST.VALIDATION_FAILED',
      fields: ['items[0].x'],
    });
    const past = await requestJson('POST', `${baseUrl}/things`, { rawBody: nestedLine(30) });
    expect({ status: past.status, code: past.body.code }).toEqual({ status: 400, code: 'REQUEST.BODY_TOO_DEEP' });
  });

  it.each([
    ['application/x-www-form-urlencoded', 'items[0][sku]=A&items[0][quantity]=1'],
    ['text/plain', '{"items":[{"sku":"A","quantity":1}]}'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
  ])('when the body is %s, then it is refused with 415 naming Content-Type, before any parser reads it', async (contentType, rawBody) => {
    const response = await requestJson('POST', `${baseUrl}/things`, { rawBody, headers: { 'content-type': contentType } });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toContain(PROBLEM_JSON);
    expect(response.body).toMatchObject({ code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE', fields: ['Content-Type'] });
  });

  it('when a body holds __proto__, then 400 REQUEST.FORBIDDEN_KEY names it (it is not dropped silently)', async () => {
    const response = await requestJson('POST', `${baseUrl}/things`, {
      rawBody: '{"items":[{"sku":"A","quantity":1}],"__proto__":{"x":1}}',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain(PROBLEM_JSON);
    expect(response.body).toMatchObject({ code: 'REQUEST.FORBIDDEN_KEY', fields: ['__proto__'] });
  });

  it('when a path parameter is longer than the router takes, then 414 is problem+json naming url, with the security headers', async () => {
    const response = await requestJson('GET', `${baseUrl}/things/${'x'.repeat(500)}`);
    expect(response.status).toBe(414);
    expect(response.headers.get('content-type')).toContain(PROBLEM_JSON);
    expect(response.body).toMatchObject({ status: 414, code: 'REQUEST.URI_TOO_LONG', fields: ['url'] });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('when a POST has no body at all, then no media type is required', async () => {
    expect((await requestJson('POST', `${baseUrl}/things/touch`)).status).toBe(204);
  });

  it.each([
    ['an API answer', 'GET', '/things', 200],
    ['an error', 'POST', '/things', 400],
    ['an unknown route', 'GET', '/nowhere', 404],
  ])('when the server sends %s, then it carries the security headers and no X-Powered-By', async (_what, method, path, status) => {
    const response = await requestJson(method, `${baseUrl}${path}`, method === 'POST' ? { body: {} } : {});
    expect(response.status).toBe(status);
    expect({
      nosniff: response.headers.get('x-content-type-options'),
      frame: response.headers.get('x-frame-options'),
      referrer: response.headers.get('referrer-policy'),
      poweredBy: response.headers.get('x-powered-by'),
      csp: response.headers.get('content-security-policy'),
    }).toEqual({
      nosniff: 'nosniff',
      frame: 'DENY',
      referrer: 'no-referrer',
      poweredBy: null,
      csp: "default-src 'none';frame-ancestors 'none'",
    });
  });

  it('when Swagger UI is served, then its CSP lets its own scripts, styles and the document load, and nothing from elsewhere', async () => {
    const page = await fetch(`${baseUrl}/docs`);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(page.status).toBe(200);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    // Every script the page loads is a same-origin file (no inline script, which the CSP forbids) and is served.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline.trim()).toBe('');
      const source = /src="([^"]+)"/.exec(attributes)?.[1] ?? '';
      expect(source).toMatch(/^(?!https?:|\/\/)/);
      const script = await fetch(new URL(source, `${baseUrl}/docs`));
      expect(script.status).toBe(200);
      // Read to the end: an unread body holds its connection open, and the server's close waits for it.
      expect((await script.text()).length).toBeGreaterThan(0);
    }
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });
});

/** The things app on a free loopback port, its HTTP server bounded by `bounds`. */
async function listenWithBounds(bounds: HttpServerConfig): Promise<{ app: NestFastifyApplication; port: number }> {
  const app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(httpServerOptions(bounds)), {
    logger: false,
  });
  configureHttpApp(app, { bodyLimitBytes: 65_536, docs: { title: 'things', description: 'test app' } });
  await app.listen(0, '127.0.0.1');
  return { app, port: Number(new URL(await app.getUrl()).port) };
}

describe('httpServerOptions connection bounds (real HTTP server)', () => {
  let app: NestFastifyApplication;
  let port: number;
  const bounds: HttpServerConfig = {
    HTTP_REQUEST_TIMEOUT_MS: 1000,
    HTTP_CONNECTION_TIMEOUT_MS: 1500,
    HTTP_KEEP_ALIVE_TIMEOUT_MS: 1000,
    HTTP_MAX_CONNECTIONS: 3,
  };

  beforeAll(async () => {
    ({ app, port } = await listenWithBounds(bounds));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('when a client connects and sends nothing, then the server closes the connection within the request timeout (plus its 1 s check)', async () => {
    const socket = await openSocket(port);
    const closedAfter = await closedWithin(socket, 5000);
    expect(closedAfter).not.toBe('open');
    expect(closedAfter).toBeLessThan(bounds.HTTP_REQUEST_TIMEOUT_MS + 1500);
  });

  it('when a client sends half its headers and stops, then the connection is closed, not held', async () => {
    const socket = await openSocket(port);
    socket.write('GET /things HTTP/1.1\r\nHost: x\r\n');
    expect(await closedWithin(socket, 5000)).not.toBe('open');
  });

  it('when a keep-alive connection idles after its answer, then it is closed after the keep-alive timeout', async () => {
    const socket = await openSocket(port);
    const start = Date.now();
    socket.write('GET /things HTTP/1.1\r\nHost: x\r\n\r\n');
    const closedAfter = await closedWithin(socket, 5000, start);
    expect(closedAfter).not.toBe('open');
    // Node 24 holds the socket 1 s past keepAliveTimeout (keepAliveTimeoutBuffer), for answers in flight.
    expect(closedAfter).toBeLessThan(bounds.HTTP_KEEP_ALIVE_TIMEOUT_MS + 1000 + 500);
  });

  it('when more connections than the cap are open, then the one beyond it is closed at once', async () => {
    const held = await Promise.all(Array.from({ length: bounds.HTTP_MAX_CONNECTIONS }, () => openSocket(port)));
    try {
      const beyond = await openSocket(port);
      expect(await closedWithin(beyond, 500)).not.toBe('open');
    } finally {
      held.forEach((socket) => socket.destroy());
    }
  });
});

/** Sends `request` raw on a new connection from `localAddress` and resolves with everything the server wrote until it closed. */
function rawExchange(port: number, request: string, localAddress = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('httpServerOptions per client address and parser refusals (real HTTP server)', () => {
  let app: NestFastifyApplication;
  let port: number;
  const bounds: HttpServerConfig = {
    HTTP_REQUEST_TIMEOUT_MS: 10_000,
    HTTP_CONNECTION_TIMEOUT_MS: 10_000,
    HTTP_KEEP_ALIVE_TIMEOUT_MS: 10_000,
    HTTP_MAX_CONNECTIONS: 100,
    HTTP_MAX_CONNECTIONS_PER_CLIENT: 3,
  };

  beforeAll(async () => {
    ({ app, port } = await listenWithBounds(bounds));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('when one client address holds its cap of idle connections, then its next one is closed at once while another address is served', async () => {
    const held = await Promise.all(Array.from({ length: bounds.HTTP_MAX_CONNECTIONS_PER_CLIENT! }, () => openSocket(port)));
    try {
      const beyond = await openSocket(port);
      expect(await closedWithin(beyond, 500)).not.toBe('open');
      // Loopback answers the whole 127/8: 127.0.0.2 is another client to the server.
      const answer = await rawExchange(port, 'GET /things HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '127.0.0.2');
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      held.forEach((socket) => socket.destroy());
    }
  });

  it('when the request headers are larger than the parser takes, then the answer is 431 problem+json with a code of ours', async () => {
    // From an address of its own: the server may not have counted the previous test's sockets closed yet.
    const answer = await rawExchange(port, `GET /things HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, '127.0.0.3');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toContain(`Content-Type: ${PROBLEM_JSON}`);
    expect(head).toContain('X-Content-Type-Options: nosniff');
    expect(JSON.parse(body)).toMatchObject({ status: 431, code: 'REQUEST.HEADERS_TOO_LARGE' });
  });
});
