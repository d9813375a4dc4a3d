import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HttpStatus } from '@nestjs/common';
import { PROBLEM_JSON, problemBody, setSecurityHeaders } from '@libs/http';
import { HealthErrorCodes } from '../health.error-codes.js';
import { type StartUpDependency, waitForDependencies } from './wait-for-dependencies.js';

/** A request to the starting server gets its answer within this, or its connection is closed. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The app's port while the app is not built yet: from the moment the configuration is valid until
 * the app listens on that port itself. Without it, a process waiting for its broker has no port
 * open, and a probe cannot tell "starting" from "hung" (or from "not started at all").
 *
 * - `GET /health/live`: 200, the process answers (restarting it would not bring the broker back).
 * - `GET /health`, `GET /health/ready`: 503 problem+json `HEALTH.STARTING`, `waitingFor` listing
 *   the dependencies that do not answer yet (named as `/health` names its checks; the drivers'
 *   errors go to the log, as `/health` does).
 * - anything else: the same 503 with `Retry-After`, so a client retries instead of failing.
 *
 * A plain Node server rather than the app's own: Nest opens the port only once the app is built,
 * and building it connects to the database and to Kafka (see
 * docs/decisions/0501-wait-for-dependencies-while-listening.md). Every answer closes its
 * connection, so {@link close} hands the port over at once.
 */
export class StartingServer {
  private waiting: readonly string[] = [];

  private constructor(private readonly server: Server) {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => this.answer(request, response));
  }

  /** Listens on `port` and `host` (the app's own) and answers as above until {@link close}. */
  static async listen(port: number, host: string): Promise<StartingServer> {
    const starting = new StartingServer(createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS }));
    starting.server.listen(port, host);
    await once(starting.server, 'listening');
    return starting;
  }

  /** Waits for every dependency (see {@link waitForDependencies}), answering what it waits for meanwhile. */
  async waitFor(dependencies: readonly StartUpDependency[], log: (line: string) => void): Promise<void> {
    await waitForDependencies(dependencies, {
      onWaiting: (names) => {
        this.waiting = names;
      },
      log,
    });
  }

  /** Frees the port for the app; resolves once it is closed. */
  async close(): Promise<void> {
    const closed = once(this.server, 'close');
    this.server.close();
    this.server.closeAllConnections();
    await closed;
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    // A body, if any, is discarded: nothing is done with it.
    request.resume();
    setSecurityHeaders(request, response, () => {
      const path = (request.url ?? '').split('?')[0];
      response.setHeader('connection', 'close');
      if (request.method === 'GET' && path === '/health/live') {
        const body = JSON.stringify({ status: 'ok', info: {}, error: {}, details: {} });
        response.writeHead(HttpStatus.OK, { 'content-type': 'application/json; charset=utf-8' }).end(body);
        return;
      }
      const waiting = this.waiting.length > 0 ? this.waiting.join(', ') : 'the app to be built';
      const body = problemBody({
        status: HttpStatus.SERVICE_UNAVAILABLE,
        code: HealthErrorCodes.STARTING,
        detail: `Starting: waiting for ${waiting}; send the same request again after Retry-After`,
        extensions: { waitingFor: [...this.waiting] },
      });
      response
        .writeHead(HttpStatus.SERVICE_UNAVAILABLE, { 'content-type': `${PROBLEM_JSON}; charset=utf-8`, 'retry-after': '1' })
        .end(JSON.stringify(body));
    });
  }
}
