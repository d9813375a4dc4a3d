import { randomUUID } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import { AuthErrorCodes, type Principal } from '@app/auth';
import { type OrderCreated, OrderEvents, OrderFields, type OrderLine, OrderLimits, orderTotalCents } from '@app/contracts';
import { TransactionContext } from '@app/database';
import { ProblemException } from '@app/http';
import { OutboxWriter } from '@app/outbox';
import { annotateLog } from '@app/telemetry';
import { OrdersErrorCodes } from '../../orders.error-codes.js';
import { PriceList } from '../../products/price-list.js';
import { orderEvent } from '../order-event.js';
import { OrderStatus } from '../order-status.js';
import type { OrderResponse } from '../order.response.js';
import type { PlaceOrderRequest } from './place-order.request.js';

@Injectable()
export class PlaceOrderService {
  constructor(
    private readonly tx: TransactionContext,
    private readonly outbox: OutboxWriter,
    private readonly priceList: PriceList,
  ) {}

  /**
   * The order, its items and its `OrderCreated` event commit in ONE transaction: either the order
   * exists and its event will be published, or neither happened. No dual write. The customer is
   * the caller's token subject; one the contract cannot carry (too long, not storable) is 403. Every
   * line is priced here, from the price list: the request carries no price (issue 16), so the total,
   * and the loyalty points that follow it, are the server's.
   */
  async place(principal: Principal, request: PlaceOrderRequest): Promise<OrderResponse> {
    const customerId = principal.subject;
    if (!OrderFields.customerId.safeParse(customerId).success) {
      throw new ProblemException(HttpStatus.FORBIDDEN, AuthErrorCodes.FORBIDDEN, "the token's subject is not a valid customer id");
    }
    return this.tx.run(async (manager) => {
      const id = randomUUID();
      const items = await this.priced(request);
      const totalCents = orderTotalCents(items);
      // Raw SQL on the hottest path: the ORM's cascade save costs a statement per item and more CPU
      // than the statements themselves; here the order and all its items take one round trip (the
      // items' foreign key is checked at the end of the statement, when the order row exists).
      annotateLog({ orderId: id });
      const [row]: { created_at: Date }[] = await manager.query(
        `WITH placed AS (
           INSERT INTO orders (id, customer_id, status, total_cents) VALUES ($1, $2, $3, $4) RETURNING created_at
         ), lines AS (
           INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price_cents)
           SELECT $1, line_no, sku, quantity, unit_price_cents
           FROM unnest($5::text[], $6::int[], $7::bigint[]) WITH ORDINALITY AS line(sku, quantity, unit_price_cents, line_no)
         )
         SELECT created_at FROM placed`,
        [
          id,
          customerId,
          OrderStatus.Pending,
          totalCents,
          items.map((item) => item.sku),
          items.map((item) => item.quantity),
          items.map((item) => item.unitPriceCents),
        ],
      );
      const createdAt = row.created_at.toISOString();
      const payload: OrderCreated = { orderId: id, customerId, items, totalCents, createdAt };
      await this.outbox.add(orderEvent(OrderEvents.OrderCreated, id, payload));
      return { id, customerId, status: OrderStatus.Pending, items, totalCents, createdAt, updatedAt: createdAt };
    });
  }

  /**
   * The request's lines with their list prices. A SKU not on the list is a 422 naming each such
   * line (`items[2].sku`), and a total beyond the contract's limit a 422 naming `items`: both are
   * answered before anything is written, and the transaction (with an Idempotency-Key's claim)
   * rolls back, so the same key may be retried once the price list has the SKU.
   */
  private async priced(request: PlaceOrderRequest): Promise<OrderLine[]> {
    const prices = await this.priceList.pricesOf(request.items.map((line) => line.sku));
    const unknown = request.items.flatMap((line, index) =>
      prices.has(line.sku) ? [] : [{ field: `items[${index}].sku`, detail: `items[${index}].sku ${line.sku} is not on the price list` }],
    );
    if (unknown.length > 0) {
      const detail = unknown.map((problem) => problem.detail).join('; ');
      throw new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, OrdersErrorCodes.UNKNOWN_SKU, detail, unknown);
    }
    const items = request.items.map(({ sku, quantity }) => ({ sku, quantity, unitPriceCents: prices.get(sku)! }));
    const totalCents = orderTotalCents(items);
    if (totalCents > OrderLimits.totalCentsMax) {
      const detail = `items total ${totalCents} cents at list prices; an order total must be at most ${OrderLimits.totalCentsMax} cents`;
      throw new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, OrdersErrorCodes.TOTAL_TOO_LARGE, detail, [{ field: 'items', detail }]);
    }
    return items;
  }
}
