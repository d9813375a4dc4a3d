import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import type { AccrualResponse } from '../accrual.response.js';
import type { RecordAccrualRequest } from './record-accrual.request.js';

@Injectable()
export class RecordAccrualService {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * Joins the transaction the idempotency interceptor opened, so key and accrual commit together.
   * Raw SQL, not the repository's `save`: one accrual per order is the loyalty service's hottest
   * path, and the ORM's change tracking cost more CPU than the insert itself.
   */
  async record(request: RecordAccrualRequest): Promise<AccrualResponse> {
    const manager = this.tx.requireManager('Recording an accrual');
    const [row]: { id: string; created_at: Date }[] = await manager.query(
      'INSERT INTO accruals (customer_id, order_id, points) VALUES ($1, $2, $3) RETURNING id, created_at',
      [request.customerId, request.orderId, request.points],
    );
    const { customerId, orderId, points } = request;
    return { id: row.id, customerId, orderId, points, createdAt: row.created_at.toISOString() };
  }
}
