import { Injectable, Logger } from '@nestjs/common';
import { CommandWriter, type OutgoingCommand } from '@libs/commands';
import {
  type OrderCreated,
  type RejectionCode,
  rejectionReason,
  ReservationEvents,
  type ReservedLine,
  type StockRejected,
  type StockReserved,
} from '@libs/contracts';
import { TransactionContext } from '@libs/database';
import { type InboxEnvelope, inMessageScopeOf } from '@libs/inbox';
import { type OutboxEvent, OutboxWriter } from '@libs/outbox';
import { annotateLog, currentTraceparent } from '@libs/telemetry';
import { InventoryErrorCodes } from '../../inventory.error-codes.js';
import { lockOrders } from '../order-lock.js';
import { reservationEventBase } from '../reservation-event-base.js';
import { loyaltyAccrualCommand } from './loyalty-accrual.command.js';

/**
 * Sums quantities per SKU, sorted by SKU: rows are then locked in one global order (no deadlocks).
 * The `OrderCreated` contract bounds the sum per SKU (`OrderLimits.quantityPerSkuMax`), so every
 * merged line fits a `StockReserved` line.
 */
export function linesBySku(items: { sku: string; quantity: number }[]): ReservedLine[] {
  const totals = new Map<string, number>();
  for (const { sku, quantity } of items) totals.set(sku, (totals.get(sku) ?? 0) + quantity);
  return [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([sku, quantity]) => ({ sku, quantity }));
}

/** What one order comes to: its lines reserved, or rejected with a code and a reason. */
type Decision = { reserved: ReservedLine[] } | { code: RejectionCode; reason: string; skus?: string[] };

/**
 * Reserves every line of an order or none, inside the inbox transaction: stock, reservation, the
 * answer event (outbox) and the loyalty command commit together with the inbox row.
 *
 * Set-based: a run of orders costs the same statements as one order, one per step (lock the
 * orders, read the cancellations, read the locked stock, update the stock, insert the
 * reservations, insert the answers, insert the commands), about 7 for 1 order or for 100; the
 * last four need no answer and travel with the inbox transaction's COMMIT, so the run costs three
 * round trips of its own. The orders are decided in offset order against the stock as the
 * earlier ones of the run left it, so the outcome is the one a message at a time would give.
 */
@Injectable()
export class ReserveStockService {
  private readonly logger = new Logger(ReserveStockService.name);

  constructor(
    private readonly tx: TransactionContext,
    private readonly outbox: OutboxWriter,
    private readonly commands: CommandWriter,
  ) {}

  async reserve(orders: readonly InboxEnvelope<OrderCreated>[]): Promise<void> {
    const manager = this.tx.requireManager('Reserving stock');
    const orderIds = orders.map((envelope) => envelope.payload.orderId);
    await lockOrders(manager, orderIds);
    const cancelledRows: { order_id: string; customer_ids: string[] | null }[] = await manager.query(
      'SELECT order_id, customer_ids FROM cancelled_orders WHERE order_id = ANY($1::uuid[])',
      [orderIds],
    );
    const cancelledFor = new Map(cancelledRows.map((row) => [row.order_id, row.customer_ids]));
    // Remembered cancels count only when one of them named the order's own customer (null: a row
    // from before customers were kept, cancelled for anyone).
    const cancelled = (order: OrderCreated) => {
      if (!cancelledFor.has(order.orderId.toLowerCase())) return false;
      const customers = cancelledFor.get(order.orderId.toLowerCase());
      if (customers === null || customers!.includes(order.customerId)) return true;
      this.logger.warn(`OrderCreated ${order.orderId}: the cancels that came first named other customers; reserving as usual`);
      return false;
    };
    const linesOf = new Map(orders.map((envelope) => [envelope, linesBySku(envelope.payload.items)]));
    const skus = [...new Set([...linesOf.values()].flatMap((lines) => lines.map((line) => line.sku)))].sort();
    // Raw SQL on this hot path: the query builder and repository cost more CPU than the
    // statements themselves. Rows are locked in SKU order (already held when the batch's locks ran).
    const stock: { sku: string; available: number }[] = await manager.query(
      'SELECT sku, available FROM stock_items WHERE sku = ANY($1::text[]) ORDER BY sku FOR UPDATE',
      [skus],
    );
    const available = new Map(stock.map((item) => [item.sku, item.available]));

    const reservations: { orderId: string; items: ReservedLine[]; customerId: string; loyaltyPoints: number }[] = [];
    const answers: OutboxEvent[] = [];
    const accruals: (OutgoingCommand & { traceparent?: string })[] = [];
    for (const envelope of orders) {
      const order = envelope.payload;
      // Each order's answer and command continue its own message's trace, and its log line names it.
      const traceparent = inMessageScopeOf(envelope, () => {
        annotateLog({ orderId: order.orderId });
        return currentTraceparent();
      });
      const decision = cancelled(order)
        ? // Orders already holds this order as CANCELLED; the answer keeps one answer per OrderCreated.
          { code: InventoryErrorCodes.ORDER_CANCELLED, reason: `Order ${order.orderId} was cancelled before it could be reserved` }
        : decide(linesOf.get(envelope)!, available);
      if ('code' in decision) {
        const payload: StockRejected = {
          orderId: order.orderId,
          reasonCode: decision.code,
          reason: decision.reason,
          ...(decision.skus && { skus: decision.skus }),
          rejectedAt: new Date().toISOString(),
        };
        answers.push({ ...reservationEventBase(envelope, ReservationEvents.StockRejected), payload, traceparent });
        continue;
      }
      for (const line of decision.reserved) available.set(line.sku, available.get(line.sku)! - line.quantity);
      // Written with the reservation, so loyalty is owed the accrual exactly when the stock is held.
      // The reservation keeps the accrual's points and customer: a release reverses exactly those.
      const accrual = loyaltyAccrualCommand(order);
      reservations.push({
        orderId: order.orderId,
        items: decision.reserved,
        customerId: order.customerId,
        loyaltyPoints: accrual?.body.points ?? 0,
      });
      if (accrual) accruals.push({ ...accrual, traceparent });
      const payload: StockReserved = { orderId: order.orderId, items: decision.reserved, reservedAt: new Date().toISOString() };
      answers.push({ ...reservationEventBase(envelope, ReservationEvents.StockReserved), payload, traceparent });
    }

    if (reservations.length > 0) {
      const taken = new Map<string, number>();
      for (const { items } of reservations) for (const line of items) taken.set(line.sku, (taken.get(line.sku) ?? 0) + line.quantity);
      // The writes of the run need no answer: they go with the COMMIT, in its round trip (deferWrite).
      await this.tx.deferWrite(
        `UPDATE stock_items SET available = available - line.quantity, reserved = reserved + line.quantity, updated_at = now()
         FROM unnest($1::text[], $2::int[]) AS line(sku, quantity) WHERE stock_items.sku = line.sku`,
        [[...taken.keys()], [...taken.values()]],
      );
      // clock_timestamp(): the moment of this reservation, not the start of a batch transaction.
      await this.tx.deferWrite(
        `INSERT INTO reservations (order_id, status, items, customer_id, loyalty_points, created_at)
         SELECT (r->>'orderId')::uuid, 'RESERVED', r->'items', r->>'customerId', (r->>'loyaltyPoints')::int, clock_timestamp()
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS reservation(r, n) ORDER BY n`,
        [JSON.stringify(reservations)],
      );
    }
    await this.outbox.addMany(answers);
    await this.commands.enqueueMany(accruals);
  }
}

/** Reserves all of `lines` from `available`, or names why not: unknown SKUs first, then the short ones. */
function decide(lines: ReservedLine[], available: ReadonlyMap<string, number>): Decision {
  const unknown = lines.filter((line) => !available.has(line.sku));
  if (unknown.length > 0) {
    return {
      code: InventoryErrorCodes.UNKNOWN_SKU,
      reason: rejectionReason(
        'Unknown SKU(s)',
        unknown.map((line) => line.sku),
      ),
      skus: unknown.map((line) => line.sku),
    };
  }
  const short = lines.filter((line) => available.get(line.sku)! < line.quantity);
  if (short.length > 0) {
    const detail = short.map((line) => `${line.sku} (wanted ${line.quantity}, available ${available.get(line.sku)!})`);
    return {
      code: InventoryErrorCodes.INSUFFICIENT_STOCK,
      reason: rejectionReason('Insufficient stock', detail),
      skus: short.map((line) => line.sku),
    };
  }
  return { reserved: lines };
}
