import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PartnerConnections, sendCommand } from './command.client.js';

/** A partner on loopback that answers 201 after `delayMs`, counting the TCP connections it accepts. */
describe('sendCommand over kept-alive connections (a real HTTP partner on loopback)', () => {
  let server: Server;
  let baseUrl: string;
  let connections = 0;
  let delayMs = 0;
  const keys: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      keys.push(String(request.headers['idempotency-key']));
      request.resume();
      request.on('end', () => setTimeout(() => response.writeHead(201, { 'content-type': 'application/json' }).end('{}'), delayMs));
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (pool: PartnerConnections, key: string, timeoutMs = 5000) =>
    sendCommand({
      url: new URL('/accruals', baseUrl),
      idempotencyKey: key,
      body: { key },
      timeoutMs,
      tokenSource: { token: async () => 'token', invalidate: () => undefined },
      connections: pool,
    });

  it('when calls follow one another, then they share one connection; when 4 run at once with a pool of 2, then 2 connections serve them', async () => {
    const pool = new PartnerConnections(2);
    try {
      connections = 0;
      for (const key of ['a', 'b', 'c']) expect(await call(pool, key)).toEqual({ kind: 'accepted', status: 201 });
      expect(connections).toBe(1);
      delayMs = 20;
      const outcomes = await Promise.all(['d', 'e', 'f', 'g'].map((key) => call(pool, key)));
      expect(outcomes.every((outcome) => outcome.kind === 'accepted')).toBe(true);
      expect(connections).toBe(2);
      expect(keys.slice(-7).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    } finally {
      delayMs = 0;
      pool.destroy();
    }
  });

  it('when the partner does not answer within the timeout, then the call is a retry that names the timeout', async () => {
    const pool = new PartnerConnections(1);
    delayMs = 500;
    try {
      const outcome = await call(pool, 'slow', 50);
      expect(outcome).toEqual({ kind: 'retry', error: 'TimeoutError: no answer within 50 ms' });
    } finally {
      delayMs = 0;
      pool.destroy();
    }
  });
});
