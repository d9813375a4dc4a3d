import { HttpException, HttpStatus } from '@nestjs/common';
import { RequestErrorCodes } from './request-error-codes.js';
import type { FieldProblem } from './problem-details.js';

/**
 * An error answer with a code of ours. Throw it from a handler, a pipe or an interceptor; the
 * {@link ProblemDetailsFilter} turns it into the `application/problem+json` body, so no code builds
 * an error body by hand.
 *
 * @example throw new ProblemException(HttpStatus.NOT_FOUND, OrdersErrorCodes.NOT_FOUND, `Order ${id} not found`);
 */
export class ProblemException extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: string,
    readonly detail: string,
    /** The inputs at fault, when the problem is about specific inputs. */
    readonly fieldProblems: readonly FieldProblem[] = [],
    /** Further members of the body (RFC 9457 extension members), e.g. a health check's results. */
    readonly extensions: Readonly<Record<string, unknown>> = {},
    /** Seconds the client should wait before trying again, sent as `Retry-After` (a 429 or 503). Default none. */
    readonly retryAfterSeconds?: number,
  ) {
    super(detail, status);
  }
}

/**
 * 400 `REQUEST.VALIDATION_FAILED` naming every input at fault; `detail` lists the problems. With
 * `maxProblems`, only the first that many are reported, and the body says `truncated: true` and
 * how many there were (`problemCount`), so the answer stays small whatever the body held.
 */
export function validationFailed(problems: readonly FieldProblem[], maxProblems = Number.POSITIVE_INFINITY): ProblemException {
  const reported = problems.slice(0, maxProblems);
  const truncated = reported.length < problems.length;
  const detail = reported.map((problem) => problem.detail).join('; ');
  return new ProblemException(
    HttpStatus.BAD_REQUEST,
    RequestErrorCodes.VALIDATION_FAILED,
    truncated ? `${detail}; and ${problems.length - reported.length} more problems` : detail,
    reported,
    truncated ? { truncated: true, problemCount: problems.length } : {},
  );
}
