import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The command ids of a batch body (`{ commands: [{ id }] }`); none for any other body. */
function batchIds(body: Buffer): string[] {
  try {
    const commands = (JSON.parse(body.toString('utf8')) as { commands?: { id?: unknown }[] }).commands;
    return Array.isArray(commands) ? commands.flatMap((command) => (typeof command?.id === 'string' ? [command.id] : [])) : [];
  } catch {
    return [];
  }
}

/** How many results of a batch answer say the accrual already existed. */
function replayedInBatch(body: Buffer): number {
  try {
    const results = (JSON.parse(body.toString('utf8')) as { results?: { replayed?: unknown }[] }).results;
    return Array.isArray(results) ? results.filter((result) => result?.replayed === true).length : 0;
  } catch {
    return 0;
  }
}

/**
 * A test-only HTTP proxy in front of loyalty that counts what loyalty sees: the calls per
 * `Idempotency-Key` (a command in a batch request counts as a call under its id), and the answers
 * loyalty marked `Idempotent-Replayed` or, in a batch, `replayed` (an operation it had already
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
        const keys = typeof key === 'string' ? [key] : batchIds(Buffer.concat(chunks));
        const traceparent = request.headers.traceparent;
        for (const one of keys) {
          proxy.callsPerKey.set(one, (proxy.callsPerKey.get(one) ?? 0) + 1);
          if (typeof traceparent === 'string') proxy.traceparentPerKey.set(one, traceparent);
        }
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
            if (typeof key !== 'string') proxy.replayed += replayedInBatch(body);
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
