import { HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { omitRequestLine } from '@libs/telemetry';
import { PROBLEM_JSON } from '../problem-details.js';
import type { BacklogSampler } from './backlog-sampler.js';
import type { FrontDoor } from './front-door.js';
import { overloadedBody } from './overloaded-answer.js';

/** Key of the Fastify route config that `@ShedWhenBacklogged()` sets on the routes it marks. */
export const SHED_ROUTE_CONFIG = 'shedWhenBacklogged';

/**
 * The door of the routes marked `@ShedWhenBacklogged()`, as a Fastify `onRequest` hook: it runs
 * before the body is read, before authentication and before any guard, interceptor or handler,
 * so a refusal costs the least there is (no parse, no signature check, no connection) and writes
 * nothing; the client may send the very same request again later. The 503 is answered here, as
 * problem+json with `Retry-After` built by the filter's own `problemBody`, rather than thrown
 * through Nest's exception path: past capacity most requests are refused, and every microsecond a
 * refusal costs is taken from the orders being finished (the security headers are already set by
 * the hooks before this one). Its log line is the shed log's, which counts the refusals of an
 * interval into one line; the request gets none of its own.
 *
 * An admitted request leaves the in-flight count when its response closes: `close` fires once
 * whether the answer was sent or the client went away, where `onResponse` misses the latter and
 * would leak a count for every abandoned request.
 *
 * With a `frontDoor` (the server lets requests be answered before Fastify routes them), the hook
 * shows it each shed route it meets, and lets pass what the front door already admitted.
 */
export function loadSheddingHook(sampler: BacklogSampler, frontDoor?: FrontDoor) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[SHED_ROUTE_CONFIG] !== true || frontDoor?.admittedHere(request.raw)) {
      done();
      return;
    }
    frontDoor?.learn(request.method, request.routeOptions.url ?? '', request.url);
    const over = sampler.admit();
    if (over) {
      omitRequestLine(request);
      // Answered from the hook: Fastify skips the rest of the request (no done()).
      void reply
        .code(HttpStatus.SERVICE_UNAVAILABLE)
        .header('retry-after', String(sampler.options.retryAfterSeconds))
        .type(PROBLEM_JSON)
        .send(overloadedBody(over));
      return;
    }
    reply.raw.once('close', () => sampler.inFlight.leave());
    done();
  };
}
