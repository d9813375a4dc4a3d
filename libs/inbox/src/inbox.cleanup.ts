import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type BatchedDelete, RetentionJob } from '@app/database';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxMetrics } from './inbox.metrics.js';

/**
 * Deletes inbox rows older than the retention, in bounded batches. Safe only because Kafka can no
 * longer redeliver a message that old: keep `INBOX_RETENTION_MS` above the topics' retention, or a
 * replay from the beginning would find no row and apply the effect again.
 */
@Injectable()
export class InboxCleanup extends RetentionJob {
  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(InboxMetrics) private readonly metrics: InboxMetrics,
    @Inject(INBOX_CONFIG) private readonly config: InboxConfig,
  ) {
    super(dataSource);
  }

  protected expired(): BatchedDelete {
    return {
      table: 'inbox_messages',
      where: 'received_at < now() - make_interval(secs => $1::float / 1000)',
      params: [this.config.INBOX_RETENTION_MS],
      batchSize: this.config.INBOX_CLEANUP_BATCH_SIZE,
    };
  }

  protected onDeleted(count: number): void {
    this.metrics.cleanupDeleted.inc(count);
  }
}
