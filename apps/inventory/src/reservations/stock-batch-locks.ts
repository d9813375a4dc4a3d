import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@libs/database';
import type { InboxBatchLocks, LockNeeds } from '@libs/inbox';
import type { OrderEventsAccepted } from '../inventory.consumes.js';

/** The stock rows one order event will change: its lines' SKUs, or those its order's reservation holds. */
export type StockLockNeed = { skus: readonly string[] } | { reservedBy: string };

/**
 * Locks every stock row a batch of order events will change, in SKU order, before the first
 * handler runs. Within one order, reserving and releasing already lock in SKU order; a batch
 * holds the locks of all its orders until it commits, so without this two batches (partitions
 * consumed concurrently, or two replicas) would lock shared SKUs in different orders and deadlock.
 * Every accepted order event has an entry in {@link needs}: one added without it does not compile.
 */
@Injectable()
export class StockBatchLocks implements InboxBatchLocks<OrderEventsAccepted, StockLockNeed> {
  constructor(private readonly tx: TransactionContext) {}

  readonly needs: LockNeeds<OrderEventsAccepted, StockLockNeed> = {
    OrderCreated: (order) => ({ skus: order.items.map((line) => line.sku) }),
    OrderCancelled: (cancel) => ({ reservedBy: cancel.orderId }),
  };

  async lock(needs: readonly StockLockNeed[]): Promise<void> {
    const manager = this.tx.requireManager('Locking stock for a batch');
    const skus = new Set<string>();
    const reservedBy: string[] = [];
    for (const need of needs) {
      if ('skus' in need) for (const sku of need.skus) skus.add(sku);
      else reservedBy.push(need.reservedBy);
    }
    if (reservedBy.length > 0) {
      const rows: { sku: string }[] = await manager.query(
        "SELECT DISTINCT line->>'sku' AS sku FROM reservations, jsonb_array_elements(items) AS line WHERE order_id = ANY($1::uuid[]) AND status = 'RESERVED'",
        [reservedBy],
      );
      for (const row of rows) skus.add(row.sku);
    }
    if (skus.size === 0) return;
    await manager.query('SELECT 1 FROM stock_items WHERE sku = ANY($1::text[]) ORDER BY sku FOR UPDATE', [[...skus]]);
  }
}
