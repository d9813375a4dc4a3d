import { performance } from 'node:perf_hooks';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { appLogger } from './app-logger.js';
import { type LogFields, runWithLogFields } from './log-fields.js';
import { contextFromTraceparent, withContext } from './trace-context.js';
import { appTracer } from './tracing.js';

/** Probes and scrapes: logged at debug, or a quiet system would print a line every few seconds. */
const QUIET_PATHS = /^\/(health|metrics)(\/|$)/;

/**
 * One SERVER span and one log line per HTTP request (info; error for a 5xx; debug for probes). The span continues the caller's trace
 * from its `traceparent` header and is the active context while Nest handles the request, so the
 * outbox rows the request writes store it. Registered after the body parser: a middleware that
 * ran before it would hand `next` to the parser's stream callbacks, outside this context.
 */
export function httpTelemetry() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const parent = contextFromTraceparent(req.header('traceparent'));
    const span = appTracer().startSpan(
      `${req.method}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    const fields: LogFields = {};
    res.once('finish', () => {
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : undefined;
      span.updateName(route ? `${req.method} ${route}` : req.method);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (route) span.setAttribute('http.route', route);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      const logger = appLogger();
      const level = res.statusCode >= 500 ? 'error' : QUIET_PATHS.test(req.path) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          ...fields,
          traceId: span.spanContext().traceId,
          method: req.method,
          route,
          path: req.originalUrl,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'http request',
      );
    });
    withContext(trace.setSpan(parent, span), () => runWithLogFields(fields, next));
  };
}
