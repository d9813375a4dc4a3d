import type { NestExpressApplication } from '@nestjs/platform-express';
import { type ApiDocsOptions, setupApiDocs } from './api-docs.js';
import { httpTelemetry } from '@app/telemetry';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { armShutdownDeadline } from './shutdown-deadline.js';
import { strictValidationPipe } from './validation.pipe.js';

/**
 * What every app's HTTP side shares: a body size limit (413 above it), strict validation (400
 * naming each field), every error as `application/problem+json`, the OpenAPI document at
 * `/docs-json` with its UI at `/docs`, a span and a log line per request, and shutdown hooks so
 * SIGTERM drains consumers and closes pools in order, within `shutdownTimeoutMs` (see
 * {@link armShutdownDeadline}; omitted in tests that run an app inside the test process, no deadline).
 */
export function configureHttpApp(
  app: NestExpressApplication,
  options: { bodyLimitBytes: number; shutdownTimeoutMs?: number; docs: ApiDocsOptions },
): void {
  app.useBodyParser('json', { limit: options.bodyLimitBytes });
  // After the body parser, so the request's span is the active context in the handler.
  app.use(httpTelemetry());
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableShutdownHooks();
  if (options.shutdownTimeoutMs !== undefined) armShutdownDeadline(options.shutdownTimeoutMs);
  setupApiDocs(app, options.docs);
}
