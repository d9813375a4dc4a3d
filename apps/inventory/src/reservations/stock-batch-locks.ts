import { Injectable } from '@nestjs/common';
import { type OrderCancelled, type OrderCreated, OrderEvents } from '@app/contracts';
import { TransactionContext } from '@app/database';
import type { InboxBatchLocks, InboxEnvelope } from '@app/inbox';

/**
 * Locks every stock row a batch of order events will change, in SKU order, before the first
 * handler runs. Within one order, reserving and releasing already lock in SKU order; a batch
 * holds the locks of all its orders until it commits, so without this two batches (partitions
 * consumed concurrently, or two replicas) would lock shared SKUs in different orders and deadlock.
 */
@Injectable()
export class StockBatchLocks implements InboxBatchLocks {
  constructor(private readonly tx: TransactionContext) {}

  async lock(envelopes: InboxEnvelope[]): Promise<void> {
    const manager = this.tx.requireManager('Locking stock for a batch');
    const skus = new Set<string>();
    const cancelled: string[] = [];
    for (const envelope of envelopes) {
      if (envelope.messageType === OrderEvents.OrderCreated.type) {
        for (const line of (envelope.payload as OrderCreated).items) skus.add(line.sku);
      } else if (envelope.messageType === OrderEvents.OrderCancelled.type) {
        cancelled.push((envelope.payload as OrderCancelled).orderId);
      }
    }
    if (cancelled.length > 0) {
      const rows: { sku: string }[] = await manager.query(
        "SELECT DISTINCT line->>'sku' AS sku FROM reservations, jsonb_array_elements(items) AS line WHERE order_id = ANY($1::uuid[]) AND status = 'RESERVED'",
        [cancelled],
      );
      for (const row of rows) skus.add(row.sku);
    }
    if (skus.size === 0) return;
    await manager.query('SELECT 1 FROM stock_items WHERE sku = ANY($1::text[]) ORDER BY sku FOR UPDATE', [[...skus]]);
  }
}
