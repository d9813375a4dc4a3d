import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/**
 * The OpenAPI extension that marks an operation open to callers without a token (set by
 * `@Public()` of libs/auth). Every other operation is documented as needing the bearer scheme,
 * since the global guard refuses it without one.
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
 * (about 1-2 MB of heap kept for the life of the process, docs/performance.md). The routes are still
 * registered here. Call before `app.init()`: routes added after init sit behind Nest's 404 handler.
 */
export function setupApiDocs(app: INestApplication, options: ApiDocsOptions): void {
  SwaggerModule.setup('docs', app, () => buildApiDocument(app, options), { jsonDocumentUrl: 'docs-json', raw: ['json'] });
}

/** The app's OpenAPI document, with the bearer requirement on every operation not marked public. */
function buildApiDocument(app: INestApplication, options: ApiDocsOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion(process.env.npm_package_version ?? '0.1.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token of the OIDC provider (AUTH_ISSUER)' },
      BEARER_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // Derived from the same marker the guard reads, so the document cannot promise a public
  // operation the guard refuses, or hide a requirement it enforces.
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Record<string, unknown>[]) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      if (operation[PUBLIC_OPERATION_EXTENSION]) delete operation[PUBLIC_OPERATION_EXTENSION];
      else operation.security = [{ [BEARER_SCHEME]: [] }];
    }
  }
  return document;
}
