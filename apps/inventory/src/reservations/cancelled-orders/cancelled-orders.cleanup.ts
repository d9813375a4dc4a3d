import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type BatchedDelete, RetentionJob } from '@app/database';
import { INVENTORY_CONFIG } from '../../inventory-config.token.js';
import type { InventoryConfig } from '../../inventory.config.js';

/**
 * Forgets remembered cancellations (`cancelled_orders`) as the inbox forgets message ids: after
 * `INBOX_RETENTION_MS`, on the inbox's cron and batch size. Why the inbox's retention: the row only
 * matters while an `OrderCreated` of that order can still arrive, and an `OrderCreated` older than
 * the inbox's memory could not be replayed safely anyway (inventory refuses to start when a topic
 * keeps records longer than that). Without it the table grows by every cancel that came first.
 */
@Injectable()
export class CancelledOrdersCleanup extends RetentionJob {
  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(INVENTORY_CONFIG) private readonly config: InventoryConfig,
  ) {
    super(dataSource);
  }

  protected expired(): BatchedDelete {
    return {
      table: 'cancelled_orders',
      where: 'cancelled_at < now() - make_interval(secs => $1::float / 1000)',
      params: [this.config.INBOX_RETENTION_MS],
      batchSize: this.config.INBOX_CLEANUP_BATCH_SIZE,
    };
  }

  protected onDeleted(): void {
    // Logged by RetentionJob; no metric: the table is small and its growth is not an alert.
  }
}
