import { STATUS_CODES } from 'node:http';
import { type ProblemDetails, problemType } from './problem-details.js';
import { ProblemException } from './problem.exception.js';

/** What is known of an error before it becomes a body. */
export interface Problem {
  status: number;
  code: string;
  detail: string;
  /** Seconds a client should wait before the same request (`Retry-After`). */
  retryAfterSeconds?: number;
  fieldProblems?: ProblemException['fieldProblems'];
  extensions?: ProblemException['extensions'];
}

/** The RFC 9457 body of a problem: what the filter sends, and what a batch answers per item. */
export function problemBody(problem: Problem): ProblemDetails {
  const fieldProblems = problem.fieldProblems ?? [];
  return {
    ...problem.extensions,
    type: problemType(problem.code),
    title: STATUS_CODES[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    ...(fieldProblems.length > 0 ? { fields: [...new Set(fieldProblems.map((one) => one.field))], errors: [...fieldProblems] } : {}),
  };
}

/** A {@link ProblemException} as the problem it carries. */
export function problemOfException(exception: ProblemException): Problem {
  const { code, detail, fieldProblems, extensions, retryAfterSeconds } = exception;
  return { status: exception.getStatus(), code, detail, fieldProblems, extensions, retryAfterSeconds };
}
