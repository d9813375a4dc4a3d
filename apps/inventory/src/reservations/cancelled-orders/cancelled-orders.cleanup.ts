import type { RetentionPolicy } from '@libs/database';
import type { InventoryConfig } from '../../inventory.config.js';

/**
 * Forgets remembered cancellations (`cancelled_orders`) as the inbox forgets message ids: after
 * `INBOX_RETENTION_MS`, on the inbox's cron and batch size. Why the inbox's retention: the row only
 * matters while an `OrderCreated` of that order can still arrive, and an `OrderCreated` older than
 * the inbox's memory could not be replayed safely anyway (inventory refuses to start when a topic
 * keeps records longer than that). Without it the table grows by every cancel that came first.
 * No metric (the count is logged): the table is small and its growth is not an alert.
 */
export function cancelledOrdersRetention(config: InventoryConfig): RetentionPolicy {
  return {
    name: 'cancelled-orders-cleanup',
    expired: {
      table: 'cancelled_orders',
      where: 'cancelled_at < now() - make_interval(secs => $1::float / 1000)',
      params: [config.INBOX_RETENTION_MS],
      batchSize: config.INBOX_CLEANUP_BATCH_SIZE,
    },
    cron: config.INBOX_CLEANUP_CRON,
  };
}
