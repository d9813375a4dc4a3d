import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type BatchedDelete, RetentionJob } from '@app/database';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox.config.js';
import { OutboxMetrics } from './outbox.metrics.js';

/**
 * Deletes published rows older than the retention, a bounded batch per statement so a large
 * backlog never takes long locks or one huge WAL burst. Pending rows are never touched.
 */
@Injectable()
export class OutboxCleanup extends RetentionJob {
  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(OutboxMetrics) private readonly metrics: OutboxMetrics,
    @Inject(OUTBOX_CONFIG) private readonly config: OutboxConfig,
  ) {
    super(dataSource);
  }

  protected expired(): BatchedDelete {
    return {
      table: 'outbox_messages',
      where: 'published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1::float / 1000)',
      params: [this.config.OUTBOX_RETENTION_MS],
      batchSize: this.config.OUTBOX_CLEANUP_BATCH_SIZE,
    };
  }

  protected onDeleted(count: number): void {
    this.metrics.deleted.inc(count);
  }
}
