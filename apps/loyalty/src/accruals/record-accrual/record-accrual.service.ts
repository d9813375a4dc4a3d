import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@libs/database';
import { accrualMismatch } from '../accrual-mismatch.js';
import type { AccrualResponse } from '../accrual.response.js';
import type { RecordAccrualRequest } from './record-accrual.request.js';

@Injectable()
export class RecordAccrualService {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * Joins the transaction the idempotency interceptor opened, so key and accrual commit together.
   * Raw SQL, not the repository's `save`: one accrual per order is the loyalty service's hottest
   * path, and the ORM's change tracking cost more CPU than the insert itself.
   *
   * At most one accrual per order, whatever key or caller asks (`accruals_order_id_key`): an
   * Idempotency-Key is the caller's, so two keys for one order would otherwise credit it twice. A
   * second request for a credited order answers the existing accrual when it says the same thing,
   * and 422 `LOYALTY.ACCRUAL_MISMATCH` (parked by the dispatcher for a human) when it does not.
   * Between concurrent requests the unique index decides: the second insert waits, then inserts nothing.
   */
  async record(request: RecordAccrualRequest): Promise<AccrualResponse> {
    const manager = this.tx.requireManager('Recording an accrual');
    const { customerId, orderId, points } = request;
    const [inserted]: { id: string; created_at: Date }[] = await manager.query(
      `INSERT INTO accruals (customer_id, order_id, points) VALUES ($1, $2, $3)
       ON CONFLICT ON CONSTRAINT accruals_order_id_key DO NOTHING RETURNING id, created_at`,
      [customerId, orderId, points],
    );
    if (inserted) return { id: inserted.id, customerId, orderId, points, createdAt: inserted.created_at.toISOString() };
    const [existing]: { id: string; customer_id: string; points: number; created_at: Date }[] = await manager.query(
      'SELECT id, customer_id, points, created_at FROM accruals WHERE order_id = $1',
      [orderId],
    );
    const mismatch = accrualMismatch(orderId, { customerId: existing.customer_id, points: existing.points }, request);
    if (mismatch) throw mismatch;
    return { id: existing.id, customerId, orderId, points, createdAt: existing.created_at.toISOString() };
  }
}
