import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** What an app says about itself at the top of its OpenAPI document. */
export interface ApiDocsOptions {
  title: string;
  description: string;
}

/**
 * Serves the app's OpenAPI 3 document at `GET /docs-json` and Swagger UI at `GET /docs`. The
 * document is built from the controllers' decorators at start-up (the swagger CLI plugin is not
 * used: the build is swc, so every property is declared with `@ApiProperty`). Call before
 * `app.init()`: routes added after init sit behind Nest's 404 handler.
 */
export function setupApiDocs(app: INestApplication, options: ApiDocsOptions): void {
  const config = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion(process.env.npm_package_version ?? '0.1.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', raw: ['json'] });
}
