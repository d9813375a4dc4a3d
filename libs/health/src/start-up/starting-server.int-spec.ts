import { connect } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { freePort } from '@tools/test-support';
import { StartingServer } from './starting-server.js';

/** True when something accepts a TCP connection on 127.0.0.1:`port`. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('StartingServer, on the app port while the app waits for its dependencies', () => {
  let server: StartingServer | undefined;

  afterEach(async () => {
    await server?.close().catch(() => undefined);
    server = undefined;
  });

  it('when probed, then live answers 200 and the rest 503 HEALTH.STARTING naming what it waits for, with Retry-After and the security headers', async () => {
    const port = await freePort();
    server = await StartingServer.listen(port, '127.0.0.1');
    await server
      .waitFor(
        [{ name: 'kafka', check: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.3.8:9092')), refusal: () => 'X: refused' }],
        () => undefined,
      )
      .catch(() => undefined);

    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect({ status: live.status, body: await live.json() }).toEqual({
      status: 200,
      body: { status: 'ok', info: {}, error: {}, details: {} },
    });

    for (const [method, path] of [
      ['GET', '/health'],
      ['GET', '/health/ready'],
      ['POST', '/orders'],
    ]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, body: method === 'POST' ? '{}' : undefined });
      expect({
        path,
        status: response.status,
        type: response.headers.get('content-type'),
        retryAfter: response.headers.get('retry-after'),
      }).toEqual({
        path,
        status: 503,
        type: 'application/problem+json; charset=utf-8',
        retryAfter: '1',
      });
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: 503, code: 'HEALTH.STARTING', waitingFor: ['kafka'] });
      // The driver's error (a host, a port) stays in the log.
      expect(JSON.stringify(body)).not.toContain('10.0.3.8');
    }
  });

  it('when closed, then the port is free for the app at once', async () => {
    const port = await freePort();
    server = await StartingServer.listen(port, '127.0.0.1');
    // A client holding a keep-alive connection does not hold the port.
    await fetch(`http://127.0.0.1:${port}/health`, { keepalive: true });
    await server.close();
    server = undefined;
    expect(await portOpen(port)).toBe(false);
  });
});
