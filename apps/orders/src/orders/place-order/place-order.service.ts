import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type OrderCreated, OrderEvents } from '@app/contracts';
import { TransactionContext } from '@app/database';
import { OutboxWriter } from '@app/outbox';
import { annotateLog } from '@app/telemetry';
import { orderEvent } from '../order-event.js';
import { Order } from '../order.entity.js';
import { OrderStatus } from '../order-status.js';
import { type OrderResponse, toOrderResponse } from '../order.response.js';
import type { PlaceOrderRequest } from './place-order.request.js';

@Injectable()
export class PlaceOrderService {
  constructor(
    private readonly tx: TransactionContext,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * The order, its items and its `OrderCreated` event commit in ONE transaction: either the order
   * exists and its event will be published, or neither happened. No dual write.
   */
  async place(request: PlaceOrderRequest): Promise<OrderResponse> {
    return this.tx.run(async (manager) => {
      const orders = manager.getRepository(Order);
      const order = orders.create({
        id: randomUUID(),
        customerId: request.customerId,
        status: OrderStatus.Pending,
        totalCents: request.items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0),
        items: request.items.map((item, index) => ({ ...item, lineNo: index + 1 })),
      });
      const saved = await orders.save(order);
      annotateLog({ orderId: saved.id });
      const payload: OrderCreated = {
        orderId: saved.id,
        customerId: saved.customerId,
        items: request.items.map(({ sku, quantity, unitPriceCents }) => ({ sku, quantity, unitPriceCents })),
        totalCents: saved.totalCents,
        createdAt: saved.createdAt.toISOString(),
      };
      await this.outbox.add(orderEvent(OrderEvents.OrderCreated, saved.id, payload));
      return toOrderResponse(saved);
    });
  }
}
