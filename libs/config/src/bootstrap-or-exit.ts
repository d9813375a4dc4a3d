import { ConfigValidationError } from './config-validation.error.js';

/**
 * Runs an app's bootstrap; on failure prints the reason and exits non-zero. Configuration errors
 * are printed without a stack trace: the message already names every variable to fix.
 */
export function bootstrapOrExit(name: string, bootstrap: () => Promise<unknown>): void {
  bootstrap().catch((error: unknown) => {
    if (error instanceof ConfigValidationError) {
      console.error(`[${name}] ${error.message}`);
    } else {
      console.error(`[${name}] failed to start:`, error);
    }
    process.exit(1);
  });
}
