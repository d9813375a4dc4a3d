import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { isConnectionUnavailable } from '@libs/database';
import { type Problem, problemBody, problemOfException } from './problem-body.js';
import { PROBLEM_JSON } from './problem-details.js';
import { ProblemException } from './problem.exception.js';
import { RequestErrorCodes } from './request-error-codes.js';

/** What the filter uses of Fastify's reply; `raw` is the Node response under it. */
interface ProblemReply {
  status(code: number): this;
  header(name: string, value: string): this;
  type(contentType: string): this;
  send(body: string): unknown;
  raw?: { headersSent: boolean; end(): void };
}

/**
 * A 4xx raised by Nest or Fastify itself (no code of ours): the route table's 404, the JSON
 * parser's 400 for broken JSON (`parseJsonBody`), Fastify's 413 for a large body, a parse pipe's
 * 400. Its message is safe to show: Nest's Fastify adapter maps only 4xx Fastify errors, whose
 * messages name no internals, to an HttpException.
 */
function frameworkProblem(exception: HttpException): Problem {
  const status: HttpStatus = exception.getStatus();
  const detail = exception.message;
  if (status === HttpStatus.BAD_REQUEST && exception.cause instanceof SyntaxError) {
    return { status, code: RequestErrorCodes.MALFORMED_JSON, detail: `Body is not valid JSON: ${detail}` };
  }
  if (status === HttpStatus.PAYLOAD_TOO_LARGE)
    return { status, code: RequestErrorCodes.BODY_TOO_LARGE, detail: 'Body larger than HTTP_BODY_LIMIT_BYTES' };
  if (status === HttpStatus.NOT_FOUND) return { status, code: RequestErrorCodes.ROUTE_NOT_FOUND, detail };
  return { status, code: RequestErrorCodes.REFUSED, detail };
}

function problemOf(exception: unknown): Problem {
  if (exception instanceof ProblemException) return problemOfException(exception);
  if (exception instanceof HttpException && exception.getStatus() < 500) return frameworkProblem(exception);
  if (isConnectionUnavailable(exception)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      code: RequestErrorCodes.UNAVAILABLE,
      detail: 'The server is too busy to answer now; nothing was done, retry later with the same request',
      retryAfterSeconds: 1,
    };
  }
  // A server fault says nothing about itself to the client: its message may hold SQL, hosts or
  // paths. The status survives (a 503 stays a 503, so a client knows to retry); the log has the rest.
  const status = exception instanceof HttpException ? exception.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
  return { status, code: RequestErrorCodes.INTERNAL_ERROR, detail: 'The server failed to answer this request; it has been logged' };
}

/**
 * The one place that writes error bodies: every exception that reaches the HTTP layer (a
 * {@link ProblemException}, a validation failure, an unknown route, a body the parser refused, a
 * bug) leaves as RFC 9457 `application/problem+json` with a stable `code`. Registered globally by
 * `configureHttpApp`, so it also covers Nest's not-found handler and the errors of Fastify's body
 * parsing and of the hooks of `configureHttpApp`, which Nest routes through global filters.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    // Only HTTP requests get a problem body. Hybrid apps share global filters with their Kafka
    // side (`inheritAppConfig`); there the error goes back unchanged to the inbox, which owns
    // retries and dead letters.
    if (host.getType() !== 'http') throw exception;
    const response = host.switchToHttp().getResponse<ProblemReply>();
    const problem = problemOf(exception);
    // A fault's stack is what the log needs and the client must not see. A ProblemException is no
    // fault: our code chose its 5xx (shedding under overload, no connection in time, a failing
    // health check) and its detail, which the answer carries; its stack is the same every time,
    // and one per refused request would flood the log (and cost the CPU) exactly under overload.
    // The request's own line still logs every 5xx, at error.
    if (problem.status >= 500 && !(exception instanceof ProblemException))
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (response.raw?.headersSent) {
      response.raw.end();
      return;
    }
    const body = problemBody(problem);
    if (problem.retryAfterSeconds !== undefined) response.header('retry-after', String(problem.retryAfterSeconds));
    response.status(problem.status).type(PROBLEM_JSON).send(JSON.stringify(body));
  }
}
