import { HttpStatus, Injectable } from '@nestjs/common';
import { type OrderCancelled, OrderEvents } from '@libs/contracts';
import { TransactionContext } from '@libs/database';
import { ProblemException } from '@libs/http';
import { OutboxWriter } from '@libs/outbox';
import { OrdersErrorCodes } from '../../orders.error-codes.js';
import { orderEvent } from '../order-event.js';
import { Order } from '../order.entity.js';
import { CANCELLABLE_STATUSES, OrderStatus } from '../order-status.js';
import { type OrderResponse, toOrderResponse } from '../order.response.js';

@Injectable()
export class CancelOrderService {
  constructor(
    private readonly tx: TransactionContext,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * Status change and `OrderCancelled` commit together. The row lock (`FOR UPDATE`) serialises
   * writers of one order, which is also what keeps its outbox rows in commit order for the relay.
   * Cancelling a cancelled order is a no-op that returns it, so clients may retry safely. Only
   * `customerId`'s own order: another's is the same 404 as a missing one.
   */
  async cancel(id: string, customerId: string): Promise<OrderResponse> {
    return this.tx.run(async (manager) => {
      const orders = manager.getRepository(Order);
      const locked = await orders.findOne({ where: { id, customerId }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new ProblemException(HttpStatus.NOT_FOUND, OrdersErrorCodes.NOT_FOUND, `Order ${id} not found`);
      if (locked.status !== OrderStatus.Cancelled) {
        if (!CANCELLABLE_STATUSES.includes(locked.status)) {
          const detail = `Order ${id} is ${locked.status} and can no longer be cancelled`;
          throw new ProblemException(HttpStatus.CONFLICT, OrdersErrorCodes.NOT_CANCELLABLE, detail);
        }
        locked.status = OrderStatus.Cancelled;
        await orders.save(locked);
        const payload: OrderCancelled = { orderId: id, customerId: locked.customerId, cancelledAt: new Date().toISOString() };
        await this.outbox.add(orderEvent(OrderEvents.OrderCancelled, id, payload));
      }
      const order = await orders.findOneOrFail({ where: { id }, relations: { items: true } });
      return toOrderResponse(order);
    });
  }
}
