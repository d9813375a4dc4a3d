import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, type OperationObject, SwaggerModule } from '@nestjs/swagger';
import { problemResponse } from './api-errors.decorator.js';
import { FieldProblem, ProblemDetails } from './problem-details.js';

/**
 * The OpenAPI extension that marks an operation open to callers without a token (set by
 * `@Public()` of libs/auth). Such an operation is documented with `security: []`; every other one
 * as needing the bearer scheme, since the global guard refuses it without one.
 */
export const PUBLIC_OPERATION_EXTENSION = 'x-public';
const BEARER_SCHEME = 'bearer';

/** What an app says about itself at the top of its OpenAPI document. */
export interface ApiDocsOptions {
  title: string;
  description: string;
}

/**
 * Serves the app's OpenAPI 3 document at `GET /docs-json` and Swagger UI at `GET /docs`. The
 * document is built from the controllers' decorators (the swagger CLI plugin is not used: the build
 * is swc, so every property is declared with `@ApiProperty`) on the first request for it, not at
 * start-up: a running service is rarely asked for it, and building it walks every controller and DTO
 * (up to a few MB kept for the life of the process, docs/decisions/0014-telemetry-at-its-cost.md). The routes are still
 * registered here. Call before `app.init()`: routes added after init sit behind Nest's 404 handler.
 */
export function setupApiDocs(app: INestApplication, options: ApiDocsOptions): void {
  SwaggerModule.setup('docs', app, () => buildApiDocument(app, options), { jsonDocumentUrl: 'docs-json', raw: ['json'] });
}

/** An operation as the shared-answer rules see it: its method, and whether the global guard lets it through without a token. */
interface OperationFacts {
  method: string;
  operation: OperationObject;
  isPublic: boolean;
}

const takesHeader = (operation: OperationObject, name: string): boolean =>
  (operation.parameters ?? []).some((p) => 'in' in p && p.in === 'header' && p.name.toLowerCase() === name.toLowerCase());

/**
 * The answers that layers every route shares can give, so no controller lists them by hand and none
 * can forget one. Each is added to the operations its rule selects, unless the operation documents
 * that status itself (its own description wins: an endpoint knows its own case better).
 */
const SHARED_ANSWERS: { status: number; description?: string; applies: (facts: OperationFacts) => boolean }[] = [
  // libs/auth's global AuthGuard refuses every route not marked @Public() without a valid token.
  // 403 is not here: only routes with @RequireScopes (which documents it) or with a check of their own answer it.
  { status: 401, applies: ({ isPublic }) => !isPublic },
  // jsonBodiesOnly() refuses a non-JSON body on any route, before routing. Listed where a body is
  // expected or commonly sent (a request body, or POST/PUT/PATCH); a GET or DELETE carries none
  // in practice (RFC 9110, section 9.3.1), so listing 415 there would be noise.
  { status: 415, applies: ({ method, operation }) => operation.requestBody !== undefined || ['post', 'put', 'patch'].includes(method) },
  // libs/idempotency's per-caller key quota (IDEMPOTENCY.QUOTA_EXCEEDED, with Retry-After): exactly
  // the operations that take an Idempotency-Key, which `@Idempotent` documents on each of them.
  {
    status: 429,
    description:
      'IDEMPOTENCY.QUOTA_EXCEEDED: this caller sent more new Idempotency-Keys in the window than IDEMPOTENCY_KEYS_PER_CALLER_MAX; ' +
      'nothing was done, retry after `Retry-After` seconds (a retry with a key already answered is never refused)',
    applies: ({ operation }) => takesHeader(operation, 'Idempotency-Key'),
  },
  // ProblemDetailsFilter: no database connection within its timeout. Every authenticated route of
  // the three APIs reads or writes its database; the public probes document their own 503.
  { status: 503, applies: ({ isPublic }) => !isPublic },
];

/**
 * The app's OpenAPI document as `GET /docs-json` serves it: built from the controllers' decorators,
 * with `security: []` on the public operations and the bearer requirement on every other one (from
 * the same marker the guard reads, so the document cannot promise a public operation the guard
 * refuses, or hide a requirement it enforces), and the answers of {@link SHARED_ANSWERS}. Needs no
 * provider: it works on an app created with `{ preview: true }`, which connects to nothing.
 */
export function buildApiDocument(app: INestApplication, options: ApiDocsOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion(process.env.npm_package_version ?? '0.1.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Relative, so it resolves against wherever the document was fetched (OpenAPI 3.0.3, 4.7.5):
    // each app serves its own document, on a host and port only the deployment knows (localhost,
    // compose, a Kubernetes Service, a gateway); an absolute URL here would be wrong in all but one.
    .addServer('/', 'The server this document was fetched from')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token of the OIDC provider (AUTH_ISSUER)' },
      BEARER_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ProblemDetails, FieldProblem] });
  for (const item of Object.values(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (typeof value !== 'object' || value === null || !('responses' in value)) continue;
      const operation = value as OperationObject & Record<string, unknown>;
      const isPublic = operation[PUBLIC_OPERATION_EXTENSION] === true;
      delete operation[PUBLIC_OPERATION_EXTENSION];
      operation.security = isPublic ? [] : [{ [BEARER_SCHEME]: [] }];
      for (const { status, description, applies } of SHARED_ANSWERS) {
        if (applies({ method, operation, isPublic })) operation.responses[status] ??= problemResponse(status, description);
      }
    }
  }
  return document;
}
