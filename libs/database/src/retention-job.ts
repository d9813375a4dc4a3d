import { Logger } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import type { DataSource } from 'typeorm';
import { type BatchedDelete, deleteInBatches } from './delete-in-batches.js';

/**
 * A retention job over one table: {@link run} deletes what {@link expired} selects, in bounded
 * batches, and never runs twice at once (a second call joins the running one, so a slow run and
 * the next cron tick cannot delete in parallel).
 */
export abstract class RetentionJob {
  private readonly logger = new Logger(this.constructor.name);
  private running: Promise<number> | undefined;

  protected constructor(private readonly retentionDataSource: DataSource) {}

  /** The rows past retention, and how many to delete per statement. */
  protected abstract expired(): BatchedDelete;

  /** Called with the number of rows each run deleted, e.g. to count them in a metric. */
  protected abstract onDeleted(count: number): void;

  /** Runs one cleanup (or joins the running one); returns the number of rows deleted. */
  run(): Promise<number> {
    this.running ??= this.deleteExpired().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves when no run is in flight; unlike {@link run}, never starts one. */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /**
   * Runs this job on `cronTime` (cron with seconds) as `name` in `@nestjs/schedule`'s registry.
   * Registered at runtime rather than by `@Cron()`, because the schedule is configuration.
   */
  schedule(registry: SchedulerRegistry, name: string, cronTime: string): void {
    const job = CronJob.from({
      cronTime,
      onTick: () => {
        this.run().catch((error: Error) => this.logger.error(`${name} failed: ${error.message}`));
      },
    });
    registry.addCronJob(name, job);
    job.start();
  }

  /** Stops the schedule and waits for the run in flight, e.g. before the DataSource closes. */
  async unschedule(registry: SchedulerRegistry, name: string): Promise<void> {
    if (registry.doesExist('cron', name)) registry.deleteCronJob(name);
    await this.idle();
  }

  private async deleteExpired(): Promise<number> {
    const spec = this.expired();
    const total = await deleteInBatches(this.retentionDataSource, spec);
    this.onDeleted(total);
    if (total > 0) this.logger.log(`Deleted ${total} row(s) of ${spec.table} past retention`);
    return total;
  }
}
