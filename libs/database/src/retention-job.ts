import { Logger } from '@nestjs/common';
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

  private async deleteExpired(): Promise<number> {
    const spec = this.expired();
    const total = await deleteInBatches(this.retentionDataSource, spec);
    this.onDeleted(total);
    if (total > 0) this.logger.log(`Deleted ${total} row(s) of ${spec.table} past retention`);
    return total;
  }
}
