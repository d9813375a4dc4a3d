import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A test-only HTTP proxy in front of loyalty that counts what loyalty sees: the calls per
 * `Idempotency-Key`, and the answers loyalty marked `Idempotent-Replayed` (a key it had already
 * served). Loyalty itself keeps no such count, and the proof that a dispatcher sends each command
 * once must come from the receiving side.
 */
export class CountingProxy {
  readonly callsPerKey = new Map<string, number>();
  /** The `traceparent` header of the last call per `Idempotency-Key`, as loyalty received it. */
  readonly traceparentPerKey = new Map<string, string>();
  replayed = 0;

  private constructor(private readonly server: Server) {}

  static async start(targetUrl: string): Promise<CountingProxy> {
    const server = createServer();
    const proxy = new CountingProxy(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const key = request.headers['idempotency-key'];
        if (typeof key === 'string') proxy.callsPerKey.set(key, (proxy.callsPerKey.get(key) ?? 0) + 1);
        const traceparent = request.headers.traceparent;
        if (typeof key === 'string' && typeof traceparent === 'string') proxy.traceparentPerKey.set(key, traceparent);
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
        ) as Record<string, string>;
        fetch(new URL(request.url ?? '/', targetUrl), {
          method: request.method,
          headers,
          body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
        })
          .then(async (answer) => {
            if (answer.headers.get('idempotent-replayed') === 'true') proxy.replayed += 1;
            const body = Buffer.from(await answer.arrayBuffer());
            response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
            response.end(body);
          })
          .catch((error: Error) => {
            response.writeHead(502);
            response.end(error.message);
          });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Keys loyalty was called with more than once. */
  keysCalledMoreThanOnce(): string[] {
    return [...this.callsPerKey].filter(([, calls]) => calls > 1).map(([key]) => key);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
