import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiDocsOptions, setupApiDocs } from './api-docs.js';
import { httpTelemetry } from '@libs/telemetry';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { armShutdownDeadline } from './shutdown-deadline.js';
import { strictValidationPipe } from './validation.pipe.js';
import { parseJsonBody } from './json-body.parser.js';
import { DEFAULT_JSON_MAX_DEPTH, jsonDepthLimit } from './json-depth.hook.js';
import { jsonBodiesOnly } from './json-only.hook.js';
import { securityHeaders } from './security-headers.hook.js';

/** What `configureHttpApp` takes from the app. */
export interface HttpAppOptions {
  /** Largest accepted body (`HTTP_BODY_LIMIT_BYTES`); larger bodies get 413. */
  bodyLimitBytes: number;
  /**
   * Deepest nesting of objects and arrays in a JSON body; deeper bodies get 400
   * `REQUEST.BODY_TOO_DEEP`. Default {@link DEFAULT_JSON_MAX_DEPTH} (32); raising it lets a body
   * push the recursion of the validator and the fingerprint deeper.
   */
  jsonMaxDepth?: number;
  /**
   * Longest a SIGTERM shutdown may run before the process exits 1 (`HTTP_SHUTDOWN_TIMEOUT_MS`; see
   * {@link armShutdownDeadline}). Omitted in tests that run an app inside the test process: no deadline.
   */
  shutdownTimeoutMs?: number;
  docs: ApiDocsOptions;
}

/**
 * What every app's HTTP side shares: security headers on every answer, JSON bodies only (415
 * otherwise), a body size limit (413 above it) and a nesting limit (400 above it), strict
 * validation (400 naming each field), every error as `application/problem+json`, the OpenAPI
 * document at `/docs-json` with its UI at `/docs`, a span and a log line per request, and shutdown
 * hooks so SIGTERM drains consumers and closes pools in order, within `shutdownTimeoutMs`.
 */
export function configureHttpApp(app: NestFastifyApplication, options: HttpAppOptions): void {
  const fastify = app.getHttpAdapter().getInstance();
  // Order matters: headers before anything may answer; the media type before any parser reads.
  // Fastify sends no X-Powered-By. Hooks added now apply to every route: Fastify attaches them
  // to the routes when the server becomes ready, after `app.init()` has registered Nest's.
  fastify.addHook('onRequest', securityHeaders());
  fastify.addHook('onRequest', jsonBodiesOnly());
  app.useBodyParser('application/json', { bodyLimit: options.bodyLimitBytes }, (_request, body, done) =>
    done(null, parseJsonBody(body, options.bodyLimitBytes)),
  );
  fastify.addHook('preValidation', jsonDepthLimit(options.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH));
  // Its preHandler hook makes the request's span the active context in the handler.
  httpTelemetry(fastify);
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableShutdownHooks();
  if (options.shutdownTimeoutMs !== undefined) armShutdownDeadline(options.shutdownTimeoutMs);
  setupApiDocs(app, options.docs);
}
