import { performance } from 'node:perf_hooks';
import { type Context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appLogger } from './app-logger.js';
import { type LogFields, runWithLogFields } from './log-fields.js';
import { contextFromTraceparent, withContext } from './trace-context.js';
import { appTracer } from './tracing.js';

/** Probes and scrapes: logged at debug, or a quiet system would print a line every few seconds. */
const QUIET_PATHS = /^\/(health|metrics)(\/|\?|$)/;

/** What the hooks of one request share, from its arrival to its response. */
interface RequestTelemetry {
  started: number;
  span: Span;
  context: Context;
  fields: LogFields;
}

const requests = new WeakMap<FastifyRequest, RequestTelemetry>();

/** Requests whose log line is written elsewhere, in summary: see {@link omitRequestLine}. */
const omittedLines = new WeakSet<FastifyRequest>();

/**
 * Leaves `request` out of the request log (its span still ends): for answers that come by the
 * thousand and are logged together by the code that gives them, such as the door's 503s past
 * capacity (`ShedLog` of libs/http), where a line each would flood the log just when the process
 * has no CPU to spare.
 */
export function omitRequestLine(request: FastifyRequest): void {
  omittedLines.add(request);
}

/**
 * One SERVER span and one log line per HTTP request (info; error for a 5xx; debug for probes; none
 * for a request {@link omitRequestLine} names), as
 * three Fastify hooks. `onRequest` starts the span, continuing the caller's trace from its
 * `traceparent` header. `preHandler` runs the rest of the request (Nest's guards, interceptors,
 * pipes and handler) inside the span's context, so the outbox rows the request writes store it:
 * only there, after the body is read, since the body parser's stream callbacks would leave any
 * context entered earlier. `onResponse` (the answer is flushed) names the span by its route
 * template, ends it and logs, for every answer, errors and 404s included.
 */
export function httpTelemetry(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const parent = contextFromTraceparent(request.headers.traceparent as string | undefined);
    const span = appTracer().startSpan(
      request.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } },
      parent,
    );
    requests.set(request, { started: performance.now(), span, context: trace.setSpan(parent, span), fields: {} });
    done();
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    const telemetry = requests.get(request);
    if (!telemetry) return done();
    withContext(telemetry.context, () => runWithLogFields(telemetry.fields, done));
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const telemetry = requests.get(request);
    done();
    if (!telemetry) return;
    const { span, started, fields } = telemetry;
    const route = request.is404 ? undefined : request.routeOptions.url;
    span.updateName(route ? `${request.method} ${route}` : request.method);
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (route) span.setAttribute('http.route', route);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    if (omittedLines.has(request)) return;
    const logger = appLogger();
    const level = reply.statusCode >= 500 ? 'error' : QUIET_PATHS.test(request.url) ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    logger[level](
      {
        ...fields,
        traceId: span.spanContext().traceId,
        method: request.method,
        route,
        path: request.url,
        status: reply.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      },
      'http request',
    );
  });
}
