import { ConfigValidationError } from './config-validation.error.js';
import { env } from './env-variable.js';

/**
 * `NODE_ENV`, read by every app: `production` refuses what is only fit for a laptop (see
 * {@link refuseLaptopSettings}) and a start without envelope signing keys.
 */
export const nodeEnv = {
  NODE_ENV: env.string({
    description:
      'production: refuses settings fit only for a laptop (JWKS over http, the development issuer, Postgres or Kafka without TLS, every interface bound), each unless its *_ALLOWED opt-out is true, and a start without MESSAGE_SIGNING_KEY (a producer) or MESSAGE_VERIFY_KEYS (a consumer) unless MESSAGE_SIGNING_DISABLED=true',
    default: '',
  }),
};

/** One setting that is fine on a laptop and dangerous in production, and the variable that allows it on purpose. */
export interface LaptopSetting {
  /** True when the configuration has the setting. */
  readonly present: boolean;
  /** The variable and value, and what it exposes, e.g. `AUTH_JWKS_URL uses http: anyone on the path can swap the keys`. */
  readonly risk: string;
  /** The boolean variable that allows it in production, on purpose; logged at every start. */
  readonly optOut: string;
  /** The opt-out's value. */
  readonly allowed: boolean;
}

/**
 * Under `NODE_ENV=production`, throws one {@link ConfigValidationError} naming every present
 * setting that its opt-out does not allow; returns one warning per setting allowed on purpose, for
 * the caller to log at every start (an opt-out nobody sees in the logs would be a silent
 * weakening). Outside production: no problem, no warning. Connects to nothing: call it right after
 * `loadConfig`, before the first connection.
 */
export function refuseLaptopSettings(nodeEnvValue: string, settings: readonly LaptopSetting[]): string[] {
  if (nodeEnvValue !== 'production') return [];
  const present = settings.filter((setting) => setting.present);
  const refused = present.filter((setting) => !setting.allowed);
  if (refused.length > 0) {
    throw new ConfigValidationError(
      refused.map((setting) => `${setting.risk}; NODE_ENV=production refuses it (${setting.optOut}=true allows it on purpose)`),
    );
  }
  return present.map((setting) => `${setting.risk}; allowed in production by ${setting.optOut}=true`);
}

/**
 * Runs every check, collects the problems of each {@link ConfigValidationError} and throws them as
 * one, so an operator fixes a deployment in one round; any other error is rethrown as is.
 */
export function checkAll(checks: readonly (() => unknown)[]): void {
  const problems: string[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      if (!(error instanceof ConfigValidationError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
}

/**
 * An app's start checks in one call: refuses the laptop settings `laptopSettings` lists (see
 * {@link refuseLaptopSettings}) and runs every other check, all reported at once ({@link checkAll});
 * returns the warnings of the opt-outs in use, for the caller to log.
 */
export function runStartChecks(
  nodeEnvValue: string,
  laptopSettings: () => readonly LaptopSetting[],
  checks: readonly (() => unknown)[],
): string[] {
  let warnings: string[] = [];
  checkAll([() => (warnings = refuseLaptopSettings(nodeEnvValue, laptopSettings())), ...checks]);
  return warnings;
}
