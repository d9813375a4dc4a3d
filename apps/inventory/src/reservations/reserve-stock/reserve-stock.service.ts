import { Injectable } from '@nestjs/common';
import { CommandWriter } from '@app/commands';
import {
  type OrderCreated,
  type RejectionCode,
  rejectionReason,
  ReservationEvents,
  type ReservedLine,
  type StockRejected,
  type StockReserved,
} from '@app/contracts';
import { TransactionContext } from '@app/database';
import type { InboxEnvelope } from '@app/inbox';
import { OutboxWriter } from '@app/outbox';
import { InventoryErrorCodes } from '../../inventory.error-codes.js';
import { lockOrder } from '../order-lock.js';
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

/**
 * Reserves every line of an order or none, inside the inbox transaction: stock, reservation,
 * the answer event (outbox) and the loyalty command commit together with the inbox row.
 */
@Injectable()
export class ReserveStockService {
  constructor(
    private readonly tx: TransactionContext,
    private readonly outbox: OutboxWriter,
    private readonly commands: CommandWriter,
  ) {}

  async reserve(envelope: InboxEnvelope<OrderCreated>): Promise<void> {
    const manager = this.tx.requireManager('Reserving stock');
    const order = envelope.payload;
    await lockOrder(manager, order.orderId);
    const [cancelled] = await manager.query('SELECT 1 FROM cancelled_orders WHERE order_id = $1', [order.orderId]);
    if (cancelled) {
      // Orders already holds this order as CANCELLED; the answer keeps one answer per OrderCreated.
      return this.reject(envelope, InventoryErrorCodes.ORDER_CANCELLED, `Order ${order.orderId} was cancelled before it could be reserved`);
    }
    const lines = linesBySku(order.items);
    // Raw SQL on this hot path (one message = one reservation): the query builder and repository
    // insert cost more CPU than the statements themselves. Rows are locked in SKU order.
    const stock: { sku: string; available: number }[] = await manager.query(
      'SELECT sku, available FROM stock_items WHERE sku = ANY($1::text[]) ORDER BY sku FOR UPDATE',
      [lines.map((line) => line.sku)],
    );
    const bySku = new Map(stock.map((item) => [item.sku, item]));

    const unknown = lines.filter((line) => !bySku.has(line.sku));
    if (unknown.length > 0) {
      return this.reject(
        envelope,
        InventoryErrorCodes.UNKNOWN_SKU,
        rejectionReason(
          'Unknown SKU(s)',
          unknown.map((line) => line.sku),
        ),
      );
    }
    const short = lines.filter((line) => bySku.get(line.sku)!.available < line.quantity);
    if (short.length > 0) {
      const detail = short.map((line) => `${line.sku} (wanted ${line.quantity}, available ${bySku.get(line.sku)!.available})`);
      return this.reject(envelope, InventoryErrorCodes.INSUFFICIENT_STOCK, rejectionReason('Insufficient stock', detail));
    }

    await manager.query(
      `UPDATE stock_items SET available = available - line.quantity, reserved = reserved + line.quantity, updated_at = now()
       FROM unnest($1::text[], $2::int[]) AS line(sku, quantity) WHERE stock_items.sku = line.sku`,
      [lines.map((line) => line.sku), lines.map((line) => line.quantity)],
    );
    // Written with the reservation, so loyalty is owed the accrual exactly when the stock is held;
    // the command carries this consumer span's context, so the loyalty call joins the order's trace.
    // The reservation keeps the accrual's points and customer: a release reverses exactly those.
    const accrual = loyaltyAccrualCommand(order);
    // clock_timestamp(): the moment of this reservation, not the start of a batch transaction.
    await manager.query(
      `INSERT INTO reservations (order_id, status, items, customer_id, loyalty_points, created_at)
       VALUES ($1, 'RESERVED', $2, $3, $4, clock_timestamp())`,
      [order.orderId, JSON.stringify(lines), order.customerId, accrual?.body.points ?? 0],
    );
    if (accrual) await this.commands.enqueue(accrual);
    const payload: StockReserved = { orderId: order.orderId, items: lines, reservedAt: new Date().toISOString() };
    await this.outbox.add({ ...reservationEventBase(envelope, ReservationEvents.StockReserved), payload });
  }

  private async reject(envelope: InboxEnvelope<OrderCreated>, reasonCode: RejectionCode, reason: string): Promise<void> {
    const payload: StockRejected = { orderId: envelope.payload.orderId, reasonCode, reason, rejectedAt: new Date().toISOString() };
    await this.outbox.add({ ...reservationEventBase(envelope, ReservationEvents.StockRejected), payload });
  }
}
