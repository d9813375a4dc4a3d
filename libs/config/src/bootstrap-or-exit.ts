import { inspect } from 'node:util';
import { ConfigValidationError } from './config-validation.error.js';
import { redactCredentials } from './redact-credentials.js';
import { loadDotEnv } from './load-dot-env.js';

/**
 * Runs an app's bootstrap; on failure prints the reason and exits non-zero. Configuration errors
 * are printed without a stack trace: the message already names every variable to fix. `.env` in
 * the working directory is loaded first when present (see {@link loadDotEnv}).
 */
export function bootstrapOrExit(name: string, bootstrap: () => Promise<unknown>): void {
  Promise.resolve()
    .then(() => {
      loadDotEnv();
      return bootstrap();
    })
    .catch((error: unknown) => {
      if (error instanceof ConfigValidationError) {
        console.error(`[${name}] ${error.message}`);
      } else {
        // Redacted: a driver's error may quote the connection string it was given.
        console.error(`[${name}] failed to start: ${redactCredentials(inspect(error))}`);
      }
      process.exit(1);
    });
}
