import { randomUUID } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import { AuthErrorCodes, type Principal } from '@app/auth';
import { type OrderCreated, OrderEvents, OrderFields } from '@app/contracts';
import { ProblemException } from '@app/http';
import { TransactionContext } from '@app/database';
import { OutboxWriter } from '@app/outbox';
import { annotateLog } from '@app/telemetry';
import { orderEvent } from '../order-event.js';
import { OrderStatus } from '../order-status.js';
import type { OrderResponse } from '../order.response.js';
import type { PlaceOrderRequest } from './place-order.request.js';

@Injectable()
export class PlaceOrderService {
  constructor(
    private readonly tx: TransactionContext,
    private readonly outbox: OutboxWriter,
  ) {}

  /**
   * The order, its items and its `OrderCreated` event commit in ONE transaction: either the order
   * exists and its event will be published, or neither happened. No dual write. The customer is
   * the caller's token subject; one the contract cannot carry (too long, not storable) is 403.
   */
  async place(principal: Principal, request: PlaceOrderRequest): Promise<OrderResponse> {
    const customerId = principal.subject;
    if (!OrderFields.customerId.safeParse(customerId).success) {
      throw new ProblemException(HttpStatus.FORBIDDEN, AuthErrorCodes.FORBIDDEN, "the token's subject is not a valid customer id");
    }
    return this.tx.run(async (manager) => {
      const id = randomUUID();
      const items = request.items.map(({ sku, quantity, unitPriceCents }) => ({ sku, quantity, unitPriceCents }));
      const totalCents = items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
      // Raw SQL on the hottest path: the ORM's cascade save costs a statement per item and more CPU
      // than the statements themselves; here the order and all its items take two round trips.
      annotateLog({ orderId: id });
      const [row]: { created_at: Date }[] = await manager.query(
        'INSERT INTO orders (id, customer_id, status, total_cents) VALUES ($1, $2, $3, $4) RETURNING created_at',
        [id, customerId, OrderStatus.Pending, totalCents],
      );
      await manager.query(
        `INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price_cents)
         SELECT $1, line_no, sku, quantity, unit_price_cents
         FROM unnest($2::text[], $3::int[], $4::bigint[]) WITH ORDINALITY AS line(sku, quantity, unit_price_cents, line_no)`,
        [id, items.map((item) => item.sku), items.map((item) => item.quantity), items.map((item) => item.unitPriceCents)],
      );
      const createdAt = row.created_at.toISOString();
      const payload: OrderCreated = { orderId: id, customerId, items, totalCents, createdAt };
      await this.outbox.add(orderEvent(OrderEvents.OrderCreated, id, payload));
      return { id, customerId, status: OrderStatus.Pending, items, totalCents, createdAt, updatedAt: createdAt };
    });
  }
}
