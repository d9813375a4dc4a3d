import { env, type EnvConfig } from '@libs/config';

/** An app's default quota of new Idempotency-Keys per caller: who its callers are decides it. */
export interface IdempotencyQuotaDefaults {
  /** Default of `IDEMPOTENCY_KEYS_PER_CALLER_MAX`. */
  keysPerCallerMax: number;
  /** Default of `IDEMPOTENCY_KEYS_WINDOW_MS`. */
  keysWindowMs: number;
}

/**
 * Retention and per-caller quota of stored idempotency keys, with defaults and what changing them
 * costs. The quota's defaults are the app's: orders' callers are customers, loyalty's only caller is
 * inventory's service principal, which sends one key per order of the whole system.
 */
export function idempotencyEnv(quota: IdempotencyQuotaDefaults) {
  return {
    IDEMPOTENCY_RETENTION_MS: env.integer({
      description:
        'Stored Idempotency-Keys older than this are deleted; a retry with an older key runs again as new. Keep it above the longest time a client (or the loyalty dispatcher) may retry, and above IDEMPOTENCY_KEYS_WINDOW_MS (the quota counts stored keys); each day kept costs a day of keys in the table',
      default: 24 * 3_600_000,
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
    IDEMPOTENCY_KEYS_PER_CALLER_MAX: env.integer({
      description:
        'New Idempotency-Keys one caller (token subject) may store per IDEMPOTENCY_KEYS_WINDOW_MS; the next is refused with 429 IDEMPOTENCY.QUOTA_EXCEEDED and Retry-After, and a replay of a stored key is never refused. Counted in Postgres over every replica; requests in flight at once may pass it by their number. Each new key reads up to this many index entries of its caller',
      default: quota.keysPerCallerMax,
      min: 1,
      max: 100_000,
    }),
    IDEMPOTENCY_KEYS_WINDOW_MS: env.integer({
      description:
        'Sliding window of IDEMPOTENCY_KEYS_PER_CALLER_MAX: a caller at its quota may store a new key once its oldest key of the window is this old. Keep it below IDEMPOTENCY_RETENTION_MS',
      default: quota.keysWindowMs,
      min: 1000,
      max: 24 * 3_600_000,
    }),
  };
}

export type IdempotencyConfig = EnvConfig<ReturnType<typeof idempotencyEnv>>;

/** Injection token of the {@link IdempotencyConfig} given to `IdempotencyConfigModule.forRoot`. */
export const IDEMPOTENCY_CONFIG = Symbol('IDEMPOTENCY_CONFIG');
