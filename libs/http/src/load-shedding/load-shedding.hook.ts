import { HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ProblemException } from '../problem.exception.js';
import { RequestErrorCodes } from '../request-error-codes.js';
import type { BacklogReading } from './backlog-reading.js';
import type { BacklogSampler } from './backlog-sampler.js';

/** Key of the Fastify route config that `@ShedWhenBacklogged()` sets on the routes it marks. */
export const SHED_ROUTE_CONFIG = 'shedWhenBacklogged';

/** 503 `SERVER.OVERLOADED` with `Retry-After`, naming the figure past its bound. */
function overloaded(over: BacklogReading, retryAfterSeconds: number): ProblemException {
  return new ProblemException(
    HttpStatus.SERVICE_UNAVAILABLE,
    RequestErrorCodes.OVERLOADED,
    `Too much work is waiting (${over.signal} is ${Math.round(over.value)}, past its bound of ${over.bound}); nothing was done, send the same request again after Retry-After`,
    [],
    {},
    retryAfterSeconds,
  );
}

/**
 * The door of the routes marked `@ShedWhenBacklogged()`, as a Fastify `onRequest` hook: it runs
 * before the body is read, before authentication and before any guard, interceptor or handler,
 * so a refusal costs the least there is (no parse, no signature check, no connection) and writes
 * nothing; the client may send the very same request again later. The error goes through the
 * global filter like every other, so the 503 is problem+json with `Retry-After`.
 *
 * An admitted request leaves the in-flight count when its response closes: `close` fires once
 * whether the answer was sent or the client went away, where `onResponse` misses the latter and
 * would leak a count for every abandoned request.
 */
export function loadSheddingHook(sampler: BacklogSampler) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[SHED_ROUTE_CONFIG] !== true) {
      done();
      return;
    }
    const over = sampler.admit();
    if (over) {
      done(overloaded(over, sampler.options.retryAfterSeconds));
      return;
    }
    reply.raw.once('close', () => sampler.inFlight.leave());
    done();
  };
}
