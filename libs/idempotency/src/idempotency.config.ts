import { env, type EnvConfig } from '@app/config';

/** Retention of stored idempotency keys, with defaults and what changing them costs. */
export const idempotencyEnv = {
  IDEMPOTENCY_RETENTION_MS: env.integer({
    description:
      'Stored Idempotency-Keys older than this are deleted; a retry with an older key runs again as new. Keep it above the longest time a client (or the loyalty dispatcher) may retry',
    default: 30 * 24 * 3_600_000,
    min: 60_000,
    max: 3650 * 24 * 3_600_000,
  }),
  IDEMPOTENCY_CLEANUP_CRON: env.cron({
    description: 'When the idempotency key cleanup runs (cron syntax with seconds)',
    default: '0 */10 * * * *',
  }),
  IDEMPOTENCY_CLEANUP_BATCH_SIZE: env.integer({
    description: 'Keys deleted per statement by cleanup; bounds lock time and WAL bursts',
    default: 1000,
    min: 1,
    max: 100_000,
  }),
};

export type IdempotencyConfig = EnvConfig<typeof idempotencyEnv>;

/** Injection token of the {@link IdempotencyConfig} given to `IdempotencyCleanupModule.forRoot`. */
export const IDEMPOTENCY_CONFIG = Symbol('IDEMPOTENCY_CONFIG');
