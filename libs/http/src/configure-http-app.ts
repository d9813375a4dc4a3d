import type { NestExpressApplication } from '@nestjs/platform-express';
import { strictValidationPipe } from './validation.pipe.js';

/**
 * What every app's HTTP side shares: a body size limit (413 above it), strict validation (400
 * naming each field), and shutdown hooks so SIGTERM drains consumers and closes pools in order.
 */
export function configureHttpApp(app: NestExpressApplication, options: { bodyLimitBytes: number }): void {
  app.useBodyParser('json', { limit: options.bodyLimitBytes });
  app.useGlobalPipes(strictValidationPipe());
  app.enableShutdownHooks();
}
