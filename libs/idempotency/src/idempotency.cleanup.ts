import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type BatchedDelete, RetentionJob } from '@app/database';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/**
 * Deletes stored Idempotency-Keys older than `IDEMPOTENCY_RETENTION_MS`, in bounded batches, on
 * `IDEMPOTENCY_CLEANUP_CRON` (issue 7, point 7: the table grew for ever). A key is a promise to
 * replay one answer; past the retention a retry with it is treated as a new request, so the
 * retention must exceed how long any caller keeps retrying.
 */
@Injectable()
export class IdempotencyCleanup extends RetentionJob {
  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(IDEMPOTENCY_CONFIG) private readonly config: IdempotencyConfig,
  ) {
    super(dataSource);
  }

  protected expired(): BatchedDelete {
    return {
      table: 'idempotency_keys',
      where: 'created_at < now() - make_interval(secs => $1::float / 1000)',
      params: [this.config.IDEMPOTENCY_RETENTION_MS],
      batchSize: this.config.IDEMPOTENCY_CLEANUP_BATCH_SIZE,
    };
  }

  protected onDeleted(): void {
    // The base class logs the count; no metric, as loyalty (a stand-in partner API) has no /metrics.
  }
}
