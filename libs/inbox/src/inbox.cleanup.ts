import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { deleteInBatches } from '@app/database';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxMetrics } from './inbox.metrics.js';

/**
 * Deletes inbox rows older than the retention, in bounded batches. Safe only because Kafka can no
 * longer redeliver a message that old: keep `INBOX_RETENTION_MS` above the topics' retention, or a
 * replay from the beginning would find no row and apply the effect again.
 */
@Injectable()
export class InboxCleanup {
  private readonly logger = new Logger(InboxCleanup.name);
  private running: Promise<number> | undefined;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(InboxMetrics) private readonly metrics: InboxMetrics,
    @Inject(INBOX_CONFIG) private readonly config: InboxConfig,
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
      table: 'inbox_messages',
      where: 'received_at < now() - make_interval(secs => $1::float / 1000)',
      params: [this.config.INBOX_RETENTION_MS],
      batchSize: this.config.INBOX_CLEANUP_BATCH_SIZE,
    });
    this.metrics.cleanupDeleted.inc(total);
    if (total > 0) this.logger.log(`Deleted ${total} inbox row(s) past retention`);
    return total;
  }
}
