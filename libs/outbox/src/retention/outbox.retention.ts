import type { RetentionPolicy } from '@libs/database';
import type { OutboxConfig } from '../outbox.config.js';
import type { OutboxMetrics } from '../ops/outbox.metrics.js';

/**
 * Deletes published rows older than the retention, a bounded batch per statement so a large
 * backlog never takes long locks or one huge WAL burst. Pending rows are never touched. Runs on
 * `OUTBOX_CLEANUP_CRON` (`retentionJob` in `OutboxModule`).
 */
export function outboxRetention(config: OutboxConfig, metrics: OutboxMetrics): RetentionPolicy {
  return {
    name: 'outbox-cleanup',
    expired: {
      table: 'outbox_messages',
      where: 'published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1::float / 1000)',
      params: [config.OUTBOX_RETENTION_MS],
      batchSize: config.OUTBOX_CLEANUP_BATCH_SIZE,
    },
    cron: config.OUTBOX_CLEANUP_CRON,
    onDeleted: (count) => metrics.deleted.inc(count),
  };
}
