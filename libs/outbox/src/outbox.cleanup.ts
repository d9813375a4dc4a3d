import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox-options.js';
import { OutboxMetrics } from './outbox.metrics.js';

/**
 * Deletes published rows older than the retention, a bounded batch per statement so a large
 * backlog never takes long locks or one huge WAL burst. Pending rows are never touched.
 */
@Injectable()
export class OutboxCleanup {
  private readonly logger = new Logger(OutboxCleanup.name);
  private running: Promise<number> | undefined;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxMetrics) private readonly metrics: OutboxMetrics,
    @Inject(OUTBOX_CONFIG) private readonly config: OutboxConfig,
  ) {}

  /** Runs one cleanup (or joins the running one); returns the number of rows deleted. */
  run(): Promise<number> {
    this.running ??= this.deleteExpired().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async deleteExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      // TypeORM returns [rows, rowCount] for DELETE on Postgres.
      const [, deleted]: [unknown[], number] = await this.dataSource.query(
        `DELETE FROM outbox_messages
         WHERE id IN (
           SELECT id FROM outbox_messages
           WHERE published_at IS NOT NULL
             AND published_at < now() - make_interval(secs => $1::float / 1000)
           LIMIT $2)
         RETURNING id`,
        [this.config.OUTBOX_RETENTION_MS, this.config.OUTBOX_CLEANUP_BATCH_SIZE],
      );
      total += deleted;
      this.metrics.deleted.inc(deleted);
      if (deleted < this.config.OUTBOX_CLEANUP_BATCH_SIZE) break;
    }
    if (total > 0) this.logger.log(`Deleted ${total} published outbox row(s)`);
    return total;
  }
}
