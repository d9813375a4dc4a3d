import type { RetentionPolicy } from '@libs/database';
import type { IdempotencyConfig } from './idempotency.config.js';

/**
 * Deletes stored Idempotency-Keys older than `IDEMPOTENCY_RETENTION_MS`, in bounded batches, on
 * `IDEMPOTENCY_CLEANUP_CRON` (without it the table grew for ever). A key is a promise to
 * replay one answer; past the retention a retry with it is treated as a new request, so the
 * retention must exceed how long any caller keeps retrying. No metric (the count is logged), as
 * loyalty (a stand-in partner API) has no /metrics.
 */
export function idempotencyRetention(config: IdempotencyConfig): RetentionPolicy {
  return {
    name: 'idempotency-cleanup',
    expired: {
      table: 'idempotency_keys',
      where: 'created_at < now() - make_interval(secs => $1::float / 1000)',
      params: [config.IDEMPOTENCY_RETENTION_MS],
      batchSize: config.IDEMPOTENCY_CLEANUP_BATCH_SIZE,
    },
    cron: config.IDEMPOTENCY_CLEANUP_CRON,
  };
}
