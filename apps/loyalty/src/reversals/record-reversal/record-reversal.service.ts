import { HttpStatus, Injectable } from '@nestjs/common';
import { TransactionContext } from '@libs/database';
import { ProblemException } from '@libs/http';
import { LoyaltyErrorCodes } from '../../loyalty.error-codes.js';
import { Reversal } from '../reversal.entity.js';
import { type ReversalResponse, toReversalResponse } from '../reversal.response.js';
import type { RecordReversalRequest } from './record-reversal.request.js';

@Injectable()
export class RecordReversalService {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * Takes back the points of the order's accrual, at most once per order. Joins the transaction the
   * idempotency interceptor opened, so key and reversal commit together; a refusal rolls the key
   * back, so the same key may succeed later.
   *
   * - No accrual for the order yet: 409 `LOYALTY.ACCRUAL_NOT_FOUND`, nothing recorded. Inventory
   *   writes the accrual and the reversal as two commands, and its dispatcher does not send one
   *   order's commands in order (retries, concurrency): a reversal can arrive first, and must wait
   *   for the accrual rather than be lost (refused for good) or recorded as zero (the accrual that
   *   follows would then stand). 409 is one of the answers the dispatcher retries.
   * - Customer or points unlike the accrual's: 422 `LOYALTY.REVERSAL_MISMATCH` (parked for a human).
   * - Already reversed (any key): the existing reversal is the answer. The unique `order_id` decides
   *   between concurrent requests: the second insert waits for the first, then inserts nothing.
   */
  async reverse(request: RecordReversalRequest): Promise<ReversalResponse> {
    const manager = this.tx.requireManager('Recording a reversal');
    const accrued: { customer_id: string; points: number }[] = await manager.query(
      'SELECT customer_id, points FROM accruals WHERE order_id = $1',
      [request.orderId],
    );
    if (accrued.length === 0) {
      const detail = `Order ${request.orderId} has no accrual yet; retry once it is credited`;
      throw new ProblemException(HttpStatus.CONFLICT, LoyaltyErrorCodes.ACCRUAL_NOT_FOUND, detail);
    }
    const points = accrued.reduce((sum, row) => sum + row.points, 0);
    if (accrued.some((row) => row.customer_id !== request.customerId) || points !== request.points) {
      const detail = `Order ${request.orderId} accrued ${points} points to ${accrued[0].customer_id}; the reversal names ${request.points} points of ${request.customerId}`;
      throw new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, LoyaltyErrorCodes.REVERSAL_MISMATCH, detail, [
        { field: 'points', detail },
      ]);
    }
    await manager.query(
      'INSERT INTO reversals (customer_id, order_id, points) VALUES ($1, $2, $3) ON CONFLICT ON CONSTRAINT reversals_order_id_key DO NOTHING',
      [request.customerId, request.orderId, request.points],
    );
    return toReversalResponse(await manager.getRepository(Reversal).findOneByOrFail({ orderId: request.orderId }));
  }
}
