import { ConfigValidationError } from './config-validation.error.js';
import type { EnvConfig, EnvSchema } from './env-schema.js';

/**
 * Reads every variable of `schema` from `source` and returns the typed values, or throws ONE
 * {@link ConfigValidationError} naming every missing or malformed variable, so an operator fixes a
 * deployment in one round instead of one variable per restart.
 */
export function loadConfig<S extends EnvSchema>(
  schema: S,
  source: NodeJS.ProcessEnv = process.env,
): EnvConfig<S> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(schema)) {
    const raw = source[name];
    if (raw === undefined || raw === '') {
      if (spec.default === undefined) {
        problems.push(`${name} is required (${spec.type}): ${spec.description}`);
      } else {
        values[name] = spec.default;
      }
      continue;
    }
    try {
      values[name] = spec.parse(raw);
    } catch (error) {
      problems.push(`${name} ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return values as EnvConfig<S>;
}
