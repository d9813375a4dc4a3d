import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ProblemException } from './problem.exception.js';
import { RequestErrorCodes } from './request-error-codes.js';

/** True when the request carries a body (RFC 9110: a `Content-Length` above 0 or a `Transfer-Encoding`). */
function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Refuses every request body that is not JSON with 415 `REQUEST.UNSUPPORTED_MEDIA_TYPE`. Every
 * API of this project takes JSON; Nest's default URL-encoded parser would otherwise read form
 * bodies with its own 100 KiB limit, past `HTTP_BODY_LIMIT_BYTES` and the JSON depth check
 * (issue 16), and a form body would reach validation as an object of strings. Register before
 * any body parser, so no other parser reads the body first.
 */
export function jsonBodiesOnly() {
  return (request: Request, _response: Response, next: NextFunction): void => {
    if (hasBody(request) && !request.is('application/json')) {
      const detail = `Content-Type must be application/json, got ${request.headers['content-type'] ?? 'none'}`;
      next(
        new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, RequestErrorCodes.UNSUPPORTED_MEDIA_TYPE, detail, [
          { field: 'Content-Type', detail },
        ]),
      );
      return;
    }
    next();
  };
}
