import type { RetentionPolicy } from '@libs/database';
import type { CommandMetrics } from '../ops/command.metrics.js';
import type { CommandsOptions } from '../command.options.js';

/**
 * Deletes acknowledged (`DONE`) commands older than `retentionMs`, a bounded batch per statement,
 * so the table holds the work in hand and a window of history instead of every command ever sent.
 * Pending and parked commands are never touched: they are work, not history. A partial index on
 * `completed_at` of `DONE` rows lets each batch find its rows without reading the others.
 * Runs on `cleanupCron` (`retentionJob` in `CommandsModule.forRoot`).
 */
export function commandsRetention(options: CommandsOptions, metrics: CommandMetrics): RetentionPolicy {
  return {
    name: `${options.table}-cleanup`,
    expired: {
      table: options.table,
      where: "status = 'DONE' AND completed_at < now() - make_interval(secs => $1::float / 1000)",
      params: [options.retentionMs],
      batchSize: options.cleanupBatchSize,
    },
    cron: options.cleanupCron,
    onDeleted: (count) => metrics.deleted.inc(count),
  };
}
