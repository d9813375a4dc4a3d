import type { RetentionPolicy } from '@libs/database';
import type { InboxConfig } from '../inbox.config.js';
import type { InboxMetrics } from '../telemetry/inbox.metrics.js';

/**
 * Deletes inbox rows older than the retention, in bounded batches, on `INBOX_CLEANUP_CRON`. Safe
 * only because Kafka can no longer redeliver a message that old: keep `INBOX_RETENTION_MS` above
 * the topics' retention, or a replay from the beginning would find no row and apply the effect again.
 */
export function inboxRetention(config: InboxConfig, metrics: InboxMetrics): RetentionPolicy {
  return {
    name: 'inbox-cleanup',
    expired: {
      table: 'inbox_messages',
      where: 'received_at < now() - make_interval(secs => $1::float / 1000)',
      params: [config.INBOX_RETENTION_MS],
      batchSize: config.INBOX_CLEANUP_BATCH_SIZE,
    },
    cron: config.INBOX_CLEANUP_CRON,
    onDeleted: (count) => metrics.cleanupDeleted.inc(count),
  };
}
