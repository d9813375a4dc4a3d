import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { HttpStatus } from '@nestjs/common';
import type { BeforeRouting } from '../before-routing.js';
import { setSecurityHeaders } from '../security-headers.hook.js';
import type { BacklogSampler } from './backlog-sampler.js';
import { OVERLOADED_CONTENT_TYPE, overloadedBody } from './overloaded-answer.js';

/** One refusal given by the {@link FrontDoor}, for the request metrics Fastify's hooks never saw. */
export interface FrontDoorRefusal {
  method: string;
  /** The route template, as the request metrics label it (a static path: the path itself). */
  route: string;
  /** From the door seeing the request to the answer handed to the socket. */
  seconds: number;
}

/** `METHOD /path` of a request, without its query string. */
function routeKey(method: string | undefined, url: string | undefined): string {
  const path = url ?? '';
  const query = path.indexOf('?');
  return `${method} ${query < 0 ? path : path.slice(0, query)}`;
}

/**
 * The load-shedding door in front of Fastify, for the shed routes whose path is fixed
 * (`POST /orders`): past capacity most requests are refused, and a refusal that goes through
 * Fastify (its request and reply, routing, the hooks every request meets) costs the orders process
 * as much again as Node's own handling (docs/decisions/0011-refusals-answered-before-routing.md), on the one thread that
 * also finishes the orders it accepted. Met here, a request is admitted or refused by the same `BacklogSampler` as in the
 * hook ({@link loadSheddingHook}), before anything of Fastify runs; a refusal gets the very answer
 * the hook gives (the security headers, `Retry-After`, the same problem+json body), is counted by
 * the sampler (`http_requests_shed_total`, the shed log) and reported to `onRefused` for the request
 * metrics. It starts no span and writes no request line: the shed log counts the refusals together.
 *
 * It learns its routes from the hook, which sees every request of a shed route that it did not
 * meet: a route whose template is the request's path is met here from then on. A route with
 * parameters, and anything it has not seen, stay with the hook, so nothing depends on what was
 * learnt but the cost.
 *
 * What it refuses on is load, not warm-up: the sampler does not count the event-loop delay a cold
 * process produces by itself (see `BacklogSampler`).
 */
export class FrontDoor {
  /** Route key (`POST /orders`) to the route's template. */
  private readonly routes = new Map<string, string>();
  private readonly admitted = new WeakSet<IncomingMessage>();

  constructor(
    private readonly sampler: BacklogSampler,
    private readonly onRefused: (refusal: FrontDoorRefusal) => void,
  ) {}

  /** The hook met a request of the shed route `template`: a template that is the path itself is kept. */
  learn(method: string, template: string, url: string): void {
    const key = routeKey(method, url);
    if (key === `${method} ${template}`) this.routes.set(key, template);
  }

  /** True when this door admitted the request (it counts in flight until its response closes): the hook lets it pass. */
  admittedHere(request: IncomingMessage): boolean {
    return this.admitted.has(request);
  }

  readonly answer: BeforeRouting = (request, response) => {
    if (this.routes.size === 0) return false;
    const route = this.routes.get(routeKey(request.method, request.url));
    if (route === undefined) return false;
    const started = performance.now();
    const over = this.sampler.admit();
    if (!over) {
      this.admitted.add(request);
      response.once('close', () => this.sampler.inFlight.leave());
      return false;
    }
    // Synchronous: helmet only sets headers. The body is left unread: Node discards it before the
    // connection takes its next request, as it does behind the hook.
    setSecurityHeaders(request, response, () => undefined);
    const body = overloadedBody(over);
    response.writeHead(HttpStatus.SERVICE_UNAVAILABLE, {
      'retry-after': String(this.sampler.options.retryAfterSeconds),
      'content-type': OVERLOADED_CONTENT_TYPE,
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
    this.onRefused({ method: request.method ?? '', route, seconds: (performance.now() - started) / 1000 });
    return true;
  };
}
