import { Injectable } from '@nestjs/common';
import { ReservationEvents, type StockRejected } from '@app/contracts';
import { TransactionContext } from '@app/database';
import type { InboxEnvelope } from '@app/inbox';
import { Order } from '../orders/order.entity.js';
import { OrderStatus } from '../orders/order-status.js';

/**
 * Moves an order from PENDING to RESERVED or REJECTED when inventory answers. A customer's cancel
 * wins over a late answer: a CANCELLED order stays CANCELLED (inventory releases the stock when it
 * sees OrderCancelled, which on its partition always follows OrderCreated).
 */
@Injectable()
export class ApplyReservationResultService {
  constructor(private readonly tx: TransactionContext) {}

  async apply(envelope: InboxEnvelope): Promise<void> {
    const orders = this.tx.requireManager('Applying a reservation result').getRepository(Order);
    const orderId = (envelope.payload as { orderId: string }).orderId;
    const order = await orders.findOne({ where: { id: orderId }, lock: { mode: 'pessimistic_write' } });
    // Thrown, so the inbox retries and then dead-letters it: an answer for an unknown order is a bug to look at.
    if (!order) throw new Error(`ORDERS.NOT_FOUND: order ${orderId} of ${envelope.messageType} ${envelope.messageId}`);
    if (order.status !== OrderStatus.Pending) return;
    if (envelope.messageType === ReservationEvents.StockReserved.type) {
      order.status = OrderStatus.Reserved;
    } else if (envelope.messageType === ReservationEvents.StockRejected.type) {
      const rejected = envelope.payload as StockRejected;
      order.status = OrderStatus.Rejected;
      order.rejectionCode = rejected.reasonCode;
      order.rejectionReason = rejected.reason;
    } else {
      return;
    }
    await orders.save(order);
  }
}
