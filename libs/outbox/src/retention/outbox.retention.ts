import { defaultPartitionName, type RetentionPolicy } from '@libs/database';
import type { OutboxConfig } from '../outbox.config.js';
import type { OutboxMetrics } from '../ops/outbox.metrics.js';

/** Published longer ago than the retention, `$1` milliseconds. */
const PUBLISHED_BEFORE_RETENTION = 'published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1::float / 1000)';

/**
 * Forgets published rows past the retention by dropping their day's partition whole, once no row
 * in it is pending or was published within the retention: no `DELETE`, no dead tuples. A partition
 * holding a pending row is never dropped, however old (a relay that never published it). Creates
 * the partitions of the next `OUTBOX_PARTITIONS_AHEAD_DAYS` days. The default partition (ids that
 * are not time-ordered) is pruned row by row, a bounded batch per statement. Runs on
 * `OUTBOX_CLEANUP_CRON` (`retentionJob` in `OutboxModule`); docs/decisions/0020-retention-by-partitions.md.
 */
export function outboxRetention(config: OutboxConfig, metrics: OutboxMetrics): RetentionPolicy {
  return {
    name: 'outbox-cleanup',
    partitions: {
      table: 'outbox_messages',
      key: 'id',
      daysAhead: config.OUTBOX_PARTITIONS_AHEAD_DAYS,
      retentionMs: config.OUTBOX_RETENTION_MS,
      stillNeeded: 'published_at IS NULL OR published_at >= now() - make_interval(secs => $1::float / 1000)',
    },
    expired: {
      table: defaultPartitionName('outbox_messages'),
      where: PUBLISHED_BEFORE_RETENTION,
      params: [config.OUTBOX_RETENTION_MS],
      batchSize: config.OUTBOX_CLEANUP_BATCH_SIZE,
    },
    cron: config.OUTBOX_CLEANUP_CRON,
    onDeleted: (count) => metrics.deleted.inc(count),
    onPartitions: (pass) => metrics.partitionsDropped.inc(pass.dropped.length),
  };
}
