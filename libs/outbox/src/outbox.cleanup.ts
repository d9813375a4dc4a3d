import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { deleteInBatches } from '@app/database';
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
    const total = await deleteInBatches(this.dataSource, {
      table: 'outbox_messages',
      where: 'published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1::float / 1000)',
      params: [this.config.OUTBOX_RETENTION_MS],
      batchSize: this.config.OUTBOX_CLEANUP_BATCH_SIZE,
    });
    this.metrics.deleted.inc(total);
    if (total > 0) this.logger.log(`Deleted ${total} published outbox row(s)`);
    return total;
  }
}
