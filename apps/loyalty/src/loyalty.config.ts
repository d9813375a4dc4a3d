import { authEnv, authLaptopSettings } from '@libs/auth';
import { env, type EnvConfig, nodeEnv, runStartChecks } from '@libs/config';
import { databaseEnv, databaseLaptopSettings, databaseSsl } from '@libs/database';
import { httpEnv, httpLaptopSettings } from '@libs/http';
import { telemetryEnv } from '@libs/telemetry';
import { idempotencyEnv } from '@libs/idempotency';

export const loyaltyEnv = {
  LOYALTY_PORT: env.port({ description: 'HTTP port of the loyalty service', default: 3002 }),
  ...nodeEnv,
  ...httpEnv,
  ...authEnv,
  ...telemetryEnv,
  ...databaseEnv('loyalty'),
  // The only caller is inventory's service principal (the routes need loyalty:accruals:write), with
  // one key per order of the whole system: a ceiling on a runaway dispatcher, above the drain rate
  // (500 orders/s), in a short window so that each check reads at most 2,000 index entries.
  ...idempotencyEnv({ keysPerCallerMax: 2000, keysWindowMs: 1000 }),
};

export type LoyaltyConfig = EnvConfig<typeof loyaltyEnv>;

/**
 * Every check of {@link loyaltyEnv} that needs no connection: what `NODE_ENV=production` refuses, Postgres TLS.
 * Run right after `loadConfig`, before the first connection, so that a missing or insecure
 * variable is reported in seconds whatever is reachable. Throws one `ConfigValidationError`
 * naming every problem; returns the warnings of the opt-outs in use, for the caller to log.
 */
export function loyaltyStartChecks(config: LoyaltyConfig): string[] {
  return runStartChecks(
    config.NODE_ENV,
    () => [...httpLaptopSettings(config), ...authLaptopSettings(config), ...databaseLaptopSettings(config)],
    [() => databaseSsl(config)],
  );
}
