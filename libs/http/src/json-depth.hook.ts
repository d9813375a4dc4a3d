import { HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ProblemException } from './problem.exception.js';
import { RequestErrorCodes } from './request-error-codes.js';

/**
 * How deep a JSON body may nest objects and arrays; the default of `configureHttpApp`. The
 * deepest body this project accepts (an order: object, items array, line object) is 3 deep.
 */
export const DEFAULT_JSON_MAX_DEPTH = 32;

/** Nesting depth of `value` (a scalar is 0), counted without recursion; stops once past `limit`. */
function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: next, depth } = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/**
 * A Fastify `preValidation` hook (it runs once the body is parsed, before the handler) that refuses
 * a JSON body nested deeper than `maxDepth` with 400 `REQUEST.BODY_TOO_DEEP`. JSON.parse itself
 * takes any depth, but what runs next recurses (class-transformer, the validator, the idempotency
 * fingerprint, JSON.stringify): 64 KiB of `[` overflowed the stack there and answered 500 (issue
 * 16). The walk is iterative and stops at the limit, so its cost is bounded by the body limit.
 */
export function jsonDepthLimit(maxDepth: number) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (jsonDepthExceeds(request.body, maxDepth)) {
      const detail = `Body nests objects or arrays more than ${maxDepth} levels deep`;
      done(new ProblemException(HttpStatus.BAD_REQUEST, RequestErrorCodes.BODY_TOO_DEEP, detail, [{ field: 'body', detail }]));
      return;
    }
    done();
  };
}
