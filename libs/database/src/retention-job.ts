import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type BatchedDelete, deleteInBatches } from './delete-in-batches.js';

/**
 * A retention job over one table: {@link run} deletes what {@link expired} selects, in bounded
 * batches, and never runs twice at once (a second call joins the running one, so a slow run and
 * the next cron tick cannot delete in parallel). {@link trigger} and {@link stop} make it a
 * `ScheduledJob` of `@app/scheduling`, which runs it on its cron.
 */
export abstract class RetentionJob {
  private readonly logger = new Logger(this.constructor.name);
  private running: Promise<number> | undefined;
  private stopped = false;

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

  /** Starts a run unless one is in flight, and logs its failure: what a schedule calls. */
  trigger(): void {
    if (this.stopped) return;
    this.run().catch((error: Error) => this.logger.error(`Retention run failed: ${error.message}`));
  }

  /** Ignores later triggers and waits for the run in flight, e.g. before the DataSource closes. */
  async stop(): Promise<void> {
    this.stopped = true;
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
