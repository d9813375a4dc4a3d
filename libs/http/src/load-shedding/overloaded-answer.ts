import { HttpStatus } from '@nestjs/common';
import { problemBody } from '../problem-body.js';
import { PROBLEM_JSON } from '../problem-details.js';
import { RequestErrorCodes } from '../request-error-codes.js';
import type { BacklogReading } from './backlog-reading.js';

/** The content type of the door's 503 as it goes out: Fastify adds the charset to a string body's type. */
export const OVERLOADED_CONTENT_TYPE = `${PROBLEM_JSON}; charset=utf-8`;

/** The body of the 503 `SERVER.OVERLOADED`, naming the figure past its bound: what the problem filter would write. */
export function overloadedBody(over: BacklogReading): string {
  return JSON.stringify(
    problemBody({
      status: HttpStatus.SERVICE_UNAVAILABLE,
      code: RequestErrorCodes.OVERLOADED,
      detail: `Too much work is waiting (${over.signal} is ${Math.round(over.value)}, past its bound of ${over.bound}); nothing was done, send the same request again after Retry-After`,
    }),
  );
}
