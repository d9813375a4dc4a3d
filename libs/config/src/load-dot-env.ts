import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Loads `<cwd>/.env` into `process.env` when the file exists, with Node's own parser
 * (`process.loadEnvFile`, Node 20.12+; a no-op where it is missing). Variables already set win
 * over the file, so a deployment's real environment is never overridden by a stray file.
 * Skipped under `NODE_ENV=test`: a test sets exactly the environment it means, and a developer's
 * `.env` must not leak into it. Returns the file it loaded, if any.
 */
export function loadDotEnv(file = '.env', source: NodeJS.ProcessEnv = process.env): string | undefined {
  if (source.NODE_ENV === 'test') return undefined;
  const path = resolve(file);
  if (!existsSync(path) || typeof process.loadEnvFile !== 'function') return undefined;
  process.loadEnvFile(path);
  return path;
}
