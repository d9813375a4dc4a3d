import { type InjectionToken, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OneRunAtATime, scheduledJob } from '@libs/scheduling';
import { type DayPartitionPass, type DayPartitionPolicy, maintainDayPartitions } from './day-partitions.maintenance.js';
import { type BatchedDelete, deleteInBatches } from './delete-in-batches.js';

/** What one retention job deletes, and when: everything that differs between two retention jobs. */
export interface RetentionPolicy {
  /** Its name in the scheduler registry and its log lines: `outbox-cleanup`. Unique per app. */
  name: string;
  /**
   * The rows past retention, and how many to delete per statement. For a day-partitioned table,
   * only its default partition's: the days' partitions go whole, by {@link partitions}.
   */
  expired: BatchedDelete;
  /** For a table range-partitioned by day: which partitions to create ahead and when one is dropped. */
  partitions?: DayPartitionPolicy;
  /** When it runs: a cron expression, six fields, seconds first. */
  cron: string;
  /** Called with the number of rows each run deleted, e.g. to count them in a metric. Default: nothing (the count is logged). */
  onDeleted?: (count: number) => void;
  /** Called with what each run created and dropped, e.g. to count it in a metric. */
  onPartitions?: (pass: DayPartitionPass) => void;
}

/**
 * A retention job over one table: {@link run} maintains its day partitions if it has any (creates
 * those ahead, drops those past retention), then deletes what its policy's `expired` selects, in
 * bounded batches, one run at a time (a slow run and the next cron tick cannot delete in parallel;
 * see `OneRunAtATime`). {@link trigger} and {@link stop} make it a `ScheduledJob`. Built in a module
 * by {@link retentionJob}; built by hand in a test to call {@link run}.
 */
export class RetentionJob {
  private readonly logger: Logger;
  private readonly runs: OneRunAtATime<number>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly policy: RetentionPolicy,
  ) {
    this.logger = new Logger(`RetentionJob ${policy.name}`);
    this.runs = new OneRunAtATime(
      () => this.deleteExpired(),
      (error) => this.logger.error(`Retention run failed: ${error.message}`),
    );
  }

  /** Runs one cleanup (or joins the running one); returns the number of rows deleted. */
  run(): Promise<number> {
    return this.runs.run();
  }

  /** Resolves when no run is in flight; unlike {@link run}, never starts one. */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  /** Starts a run unless one is in flight, and logs its failure: what a schedule calls. */
  trigger(): void {
    this.runs.wake();
  }

  /** Ignores later triggers and waits for the run in flight, e.g. before the DataSource closes. */
  stop(): Promise<void> {
    return this.runs.stop();
  }

  private async deleteExpired(): Promise<number> {
    const { expired, onDeleted, partitions, onPartitions } = this.policy;
    if (partitions) {
      const pass = await maintainDayPartitions(this.dataSource, partitions);
      onPartitions?.(pass);
      if (pass.created.length > 0) this.logger.log(`Created partitions ${pass.created.join(', ')}`);
      if (pass.dropped.length > 0) this.logger.log(`Dropped partitions past retention: ${pass.dropped.join(', ')}`);
    }
    const total = await deleteInBatches(this.dataSource, expired);
    onDeleted?.(total);
    if (total > 0) this.logger.log(`Deleted ${total} row(s) of ${expired.table} past retention`);
    return total;
  }
}

/**
 * The Nest provider of one retention job: its policy, built from the `inject`ed dependencies (the
 * owner's configuration, its metrics), run on the policy's cron against the app's DataSource and
 * awaited at shutdown. One factory for every table that must forget (outbox, inbox, idempotency
 * keys, remembered cancellations) instead of a cleanup class and a scheduler class per table.
 *
 * @example
 * retentionJob({ inject: [OUTBOX_CONFIG, OutboxMetrics], policy: outboxRetention })
 */
export function retentionJob<Deps extends unknown[]>(options: {
  inject: readonly InjectionToken[];
  policy: (...deps: Deps) => RetentionPolicy;
}) {
  return scheduledJob({
    inject: [DataSource, ...options.inject],
    define: (dataSource: DataSource, ...deps: Deps) => {
      const policy = options.policy(...deps);
      return { name: policy.name, job: new RetentionJob(dataSource, policy), schedule: { cron: policy.cron } };
    },
  });
}
