import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { keepAlivePost } from './keep-alive-post.js';

// A local node:http server stands in for the orders app: what is under test is the client.
describe('keepAlivePost', () => {
  let server: Server;
  let url: URL;
  /** The sockets this test's requests arrived on: a socket kept alive from an earlier test counts too. */
  const connections = new Set<Socket>();
  const received: { method?: string; path?: string; headers: IncomingMessage['headers']; body: string }[] = [];
  let answer: (request: IncomingMessage, body: string) => { status: number; text: string } | 'hang' = () => ({ status: 201, text: '{}' });

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        connections.add(request.socket);
        received.push({ method: request.method, path: request.url, headers: request.headers, body });
        const reply = answer(request, body);
        if (reply !== 'hang') response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/orders?x=1`);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
    connections.clear();
    answer = () => ({ status: 201, text: '{}' });
  });

  it('sends the JSON body with its headers and returns the status and the whole answer', async () => {
    const long = JSON.stringify({ id: 'a'.repeat(100_000) });
    answer = (_request, body) => ({ status: 422, text: body === '{"items":[]}' ? long : 'wrong body' });

    const outcome = await keepAlivePost(url, { authorization: 'Bearer t', 'idempotency-key': 'k-1' }, '{"items":[]}', 5000);

    expect(outcome).toEqual({ status: 422, text: long });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', path: '/orders?x=1' });
    expect(received[0].headers).toMatchObject({
      authorization: 'Bearer t',
      'idempotency-key': 'k-1',
      'content-type': 'application/json',
      'content-length': '12',
    });
  });

  it('reuses its connection for requests sent one after another', async () => {
    for (let n = 0; n < 5; n += 1) expect(await keepAlivePost(url, {}, '{}', 5000)).toEqual({ status: 201, text: '{}' });

    expect(received).toHaveLength(5);
    expect(connections.size).toBe(1);
  });

  it('opens a connection per concurrent request, as an open-model generator needs', async () => {
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => keepAlivePost(url, {}, '{}', 5000)));

    expect(outcomes).toEqual(Array.from({ length: 4 }, () => ({ status: 201, text: '{}' })));
    expect(connections.size).toBe(4);
  });

  it('reports no answer within the timeout as an error, without throwing', async () => {
    answer = () => 'hang';

    const outcome = await keepAlivePost(url, {}, '{}', 200);

    expect(outcome).toEqual({ error: 'no answer within 200 ms' });
  });

  it('reports a refused connection as an error naming its code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const outcome = await keepAlivePost(new URL(`http://127.0.0.1:${port}/orders`), {}, '{}', 5000);

    expect(outcome).toEqual({ error: expect.stringContaining('(ECONNREFUSED)') });
  });
});
