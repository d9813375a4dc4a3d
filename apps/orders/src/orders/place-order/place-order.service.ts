import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuthErrorCodes, type Principal } from '@libs/auth';
import { type OrderCreated, OrderEvents, OrderFields, type OrderLine, OrderLimits, orderTotalCents } from '@libs/contracts';
import { timeOrderedUuid, TransactionContext } from '@libs/database';
import { ProblemException } from '@libs/http';
import { OutboxWriter } from '@libs/outbox';
import { annotateLog } from '@libs/telemetry';
import { OrdersErrorCodes } from '../../orders.error-codes.js';
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
   * the caller's token subject; one the contract cannot carry (too long, not storable) is 403. Every
   * line is priced here, from the price list: the request carries no price (a client could otherwise set its own), so the total,
   * and the loyalty points that follow it, are the server's.
   */
  async place(principal: Principal, request: PlaceOrderRequest): Promise<OrderResponse> {
    const customerId = principal.subject;
    if (!OrderFields.customerId.safeParse(customerId).success) {
      throw new ProblemException(HttpStatus.FORBIDDEN, AuthErrorCodes.FORBIDDEN, "the token's subject is not a valid customer id");
    }
    return this.tx.run(async (manager) => {
      // Time-ordered: orders, order_items and inventory's reservations are keyed by it, and stay append-only.
      const id = timeOrderedUuid();
      annotateLog({ orderId: id });
      const { items, createdAt } = await this.priceAndWrite(manager, id, customerId, request);
      const totalCents = orderTotalCents(items);
      const payload: OrderCreated = { orderId: id, customerId, items, totalCents, createdAt };
      await this.outbox.add(orderEvent(OrderEvents.OrderCreated, id, payload));
      return { id, customerId, status: OrderStatus.Pending, items, totalCents, createdAt, updatedAt: createdAt };
    });
  }

  /**
   * Prices every line from the price list and, only when every line is on it and the total within
   * the contract's limit, writes the order and its items: one statement, one round trip, on the
   * hottest path (the ORM's cascade save cost a statement per item and more CPU than the statements
   * themselves). The prices are read inside the order's transaction, so the order is written with
   * the ones committed when it was placed. When nothing was written, {@link refusal} says why.
   */
  private async priceAndWrite(
    manager: EntityManager,
    id: string,
    customerId: string,
    request: PlaceOrderRequest,
  ): Promise<{ items: OrderLine[]; createdAt: string }> {
    const rows: { unit_price_cents: string | null; created_at: Date | null }[] = await manager.query(
      `WITH line AS (
         SELECT line.line_no, line.sku, line.quantity, products.unit_price_cents
         FROM unnest($5::text[], $6::int[]) WITH ORDINALITY AS line(sku, quantity, line_no)
         LEFT JOIN products ON products.sku = line.sku
       ), accepted AS (
         SELECT sum(quantity * unit_price_cents) AS total_cents FROM line
         HAVING bool_and(unit_price_cents IS NOT NULL) AND sum(quantity * unit_price_cents) <= $4
       ), placed AS (
         INSERT INTO orders (id, customer_id, status, total_cents) SELECT $1, $2, $3, total_cents FROM accepted RETURNING created_at
       ), lines AS (
         INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price_cents)
         SELECT $1, line_no, sku, quantity, unit_price_cents FROM line WHERE EXISTS (SELECT 1 FROM accepted)
       )
       SELECT unit_price_cents, (SELECT created_at FROM placed) AS created_at FROM line ORDER BY line_no`,
      [
        id,
        customerId,
        OrderStatus.Pending,
        OrderLimits.totalCentsMax,
        request.items.map((line) => line.sku),
        request.items.map((line) => line.quantity),
      ],
    );
    const prices = rows.map((row) => (row.unit_price_cents === null ? undefined : Number(row.unit_price_cents)));
    const createdAt = rows[0]?.created_at;
    if (!createdAt) throw refusal(request, prices);
    const items = request.items.map(({ sku, quantity }, index) => ({ sku, quantity, unitPriceCents: prices[index]! }));
    return { items, createdAt: createdAt.toISOString() };
  }
}

/**
 * Why an order was not written, from its lines' list prices (`undefined`: not on the list): a SKU
 * not on the list is a 422 naming each such line (`items[2].sku`), else the total beyond the
 * contract's limit a 422 naming `items`. Nothing was written and the transaction (with an
 * Idempotency-Key's) rolls back, so the same key may be retried once the price list has the SKU.
 */
function refusal(request: PlaceOrderRequest, prices: readonly (number | undefined)[]): ProblemException {
  const unknown = request.items.flatMap((line, index) =>
    prices[index] === undefined
      ? [{ field: `items[${index}].sku`, detail: `items[${index}].sku ${line.sku} is not on the price list` }]
      : [],
  );
  if (unknown.length > 0) {
    const detail = unknown.map((problem) => problem.detail).join('; ');
    return new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, OrdersErrorCodes.UNKNOWN_SKU, detail, unknown);
  }
  const totalCents = orderTotalCents(request.items.map(({ quantity }, index) => ({ quantity, unitPriceCents: prices[index]! })));
  const detail = `items total ${totalCents} cents at list prices; an order total must be at most ${OrderLimits.totalCentsMax} cents`;
  return new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, OrdersErrorCodes.TOTAL_TOO_LARGE, detail, [{ field: 'items', detail }]);
}
