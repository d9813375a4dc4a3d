import { HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ProblemException } from './problem.exception.js';
import { RequestErrorCodes } from './request-error-codes.js';

/** True when the request carries a body (RFC 9110: a `Content-Length` above 0 or a `Transfer-Encoding`). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** True for `application/json`, with or without parameters (`; charset=utf-8`), in any letter case. */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

/**
 * A Fastify `onRequest` hook that refuses every request body that is not JSON with 415
 * `REQUEST.UNSUPPORTED_MEDIA_TYPE`. Every API of this project takes JSON; the URL-encoded parser
 * Nest registers by default would otherwise read form bodies past the JSON depth check (a nesting bomb in a form),
 * and a form body would reach validation as an object of strings. `onRequest` runs before Fastify
 * reads the body, so no parser sees it.
 */
export function jsonBodiesOnly() {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const contentType = request.headers['content-type'];
    if (hasBody(request) && !isJson(contentType)) {
      const detail = `Content-Type must be application/json, got ${contentType ?? 'none'}`;
      done(
        new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, RequestErrorCodes.UNSUPPORTED_MEDIA_TYPE, detail, [
          { field: 'Content-Type', detail },
        ]),
      );
      return;
    }
    done();
  };
}
