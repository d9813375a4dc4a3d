import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import { CodedError } from '@app/envelope';
import type { InboxEnvelope } from '@app/inbox';
import { annotateLog } from '@app/telemetry';
import { type OrdersErrorCode, OrdersErrorCodes } from '../orders.error-codes.js';
import { OrderStatus } from '../orders/order-status.js';

/** The final state an answer moves a PENDING order to. */
export interface ReservationResultChange {
  status: OrderStatus;
  rejectionCode: string | null;
  rejectionReason: string | null;
}

/**
 * Moves an order from PENDING to RESERVED or REJECTED when inventory answers. A customer's cancel
 * wins over a late answer: a CANCELLED order stays CANCELLED (inventory releases the stock when it
 * sees OrderCancelled, which on its partition always follows OrderCreated).
 */
@Injectable()
export class ApplyReservationResultService {
  constructor(private readonly tx: TransactionContext) {}

  /** Applies `change` (none for an answer that changes nothing) to the order `answer` is about. */
  async apply(answer: InboxEnvelope<{ orderId: string }>, change: ReservationResultChange | undefined): Promise<void> {
    const manager = this.tx.requireManager('Applying a reservation result');
    const { orderId } = answer.payload;
    annotateLog({ orderId });
    // One conditional statement instead of read, lock and save: the row lock of the UPDATE is the
    // same, and "only from PENDING" is decided by the database (a cancel wins). clock_timestamp(),
    // not now(): in a batch transaction now() is the batch's start, and updated_at is when the
    // order reached its final state (what the benchmark's end-to-end latency reads).
    if (change) {
      // TypeORM answers an UPDATE with [rows, affected row count].
      const [, updated]: [unknown[], number] = await manager.query(
        `UPDATE orders SET status = $2, rejection_code = $3, rejection_reason = $4, updated_at = clock_timestamp()
         WHERE id = $1 AND status = $5`,
        [orderId, change.status, change.rejectionCode, change.rejectionReason, OrderStatus.Pending],
      );
      if (updated > 0) return;
    }
    const [existing] = await manager.query('SELECT 1 FROM orders WHERE id = $1', [orderId]);
    // Thrown, so the inbox retries and then dead-letters it: an answer for an unknown order is a bug to look at.
    if (!existing) {
      throw new CodedError<OrdersErrorCode>(OrdersErrorCodes.NOT_FOUND, `order ${orderId} of ${answer.messageType} ${answer.messageId}`);
    }
  }
}
