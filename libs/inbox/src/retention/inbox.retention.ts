import { defaultPartitionName, type RetentionPolicy } from '@libs/database';
import type { InboxConfig } from '../inbox.config.js';
import type { InboxMetrics } from '../telemetry/inbox.metrics.js';

/**
 * Forgets inbox rows past the retention by dropping their day's partition (the day of the message
 * id) whole, once no row in it was received within the retention; creates the partitions of the
 * next `INBOX_PARTITIONS_AHEAD_DAYS` days; prunes the default partition (message ids that are not
 * time-ordered) in bounded batches. Runs on `INBOX_CLEANUP_CRON`. Safe only because Kafka can no
 * longer redeliver a message that old: keep `INBOX_RETENTION_MS` above the topics' retention, or a
 * replay from the beginning would find no row and apply the effect again.
 */
export function inboxRetention(config: InboxConfig, metrics: InboxMetrics): RetentionPolicy {
  return {
    name: 'inbox-cleanup',
    partitions: {
      table: 'inbox_messages',
      key: 'message_id',
      daysAhead: config.INBOX_PARTITIONS_AHEAD_DAYS,
      retentionMs: config.INBOX_RETENTION_MS,
      stillNeeded: 'received_at >= now() - make_interval(secs => $1::float / 1000)',
    },
    expired: {
      table: defaultPartitionName('inbox_messages'),
      where: 'received_at < now() - make_interval(secs => $1::float / 1000)',
      params: [config.INBOX_RETENTION_MS],
      batchSize: config.INBOX_CLEANUP_BATCH_SIZE,
    },
    cron: config.INBOX_CLEANUP_CRON,
    onDeleted: (count) => metrics.cleanupDeleted.inc(count),
    onPartitions: (pass) => metrics.partitionsDropped.inc(pass.dropped.length),
  };
}
