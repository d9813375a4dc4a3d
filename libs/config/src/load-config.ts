import * as z from 'zod';
import { ConfigValidationError } from './config-validation.error.js';
import type { EnvConfig, EnvSchema } from './env-variable.js';

/**
 * Reads every variable of `schema` from `source` and returns the typed values, or throws ONE
 * {@link ConfigValidationError} naming every missing or malformed variable, so an operator fixes a
 * deployment in one round instead of one variable per restart. An empty variable counts as unset
 * (`NAME=` in `.env` or compose), so its default applies.
 */
export function loadConfig<S extends EnvSchema>(schema: S, source: NodeJS.ProcessEnv = process.env): EnvConfig<S> {
  const raw = Object.fromEntries(Object.keys(schema).map((name) => [name, source[name] === '' ? undefined : source[name]]));
  const result = z.object(schema).safeParse(raw);
  if (!result.success) {
    throw new ConfigValidationError(result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  return result.data as EnvConfig<S>;
}
