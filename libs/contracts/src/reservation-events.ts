import type { MessageDeclaration } from '@libs/envelope';
import type { z } from 'zod';
import { codePointLength, integer, list, oneOf, tolerantRecord, text, timestamp, uuid } from './field-schemas.js';
import { SKU_PATTERN } from './order-events.js';
import { OrderLimits } from './order-limits.js';
import { Topics } from './topics.js';

/**
 * Why inventory rejected an order: `StockRejected.reasonCode`, which orders stores and shows, and
 * inventory's HTTP error codes (`InventoryErrorCodes` is built from these). Declared here, once:
 * they cross process boundaries, so they are never renamed, reused or given another meaning.
 */
export const RejectionCodes = {
  /** No stock item has this SKU (also the 404 of inventory's stock API). */
  UNKNOWN_SKU: 'INVENTORY.UNKNOWN_SKU',
  /** A line asks for more than is available. */
  INSUFFICIENT_STOCK: 'INVENTORY.INSUFFICIENT_STOCK',
  /**
   * The order's `OrderCancelled` reached inventory before its `OrderCreated` (a replayed dead
   * letter, a redelivery after a rebalance), so nothing is reserved.
   */
  ORDER_CANCELLED: 'INVENTORY.ORDER_CANCELLED',
} as const;
export type RejectionCode = (typeof RejectionCodes)[keyof typeof RejectionCodes];

/** Limits of the reservation answers. Lines and quantities are the order's ({@link OrderLimits}). */
export const ReservationLimits = {
  /** Characters (code points) of `StockRejected.reason`; build reasons with {@link rejectionReason}. */
  reasonMaxLength: 500,
} as const;

/**
 * A `StockRejected` reason that fits {@link ReservationLimits.reasonMaxLength} by construction,
 * however many SKUs an order names: `"<summary>: <detail>, <detail> and 7 more"` (or
 * `"<summary>: 3 not listed"` when not even one detail fits). Details that do not fit are counted,
 * never cut in half; only an over-long summary is cut, at a code point (never inside a surrogate
 * pair). Lengths count code points, as the contract does. Once, ten unknown 64-character SKUs made a
 * 700-character reason that the orders side dead-lettered.
 */
export function rejectionReason(summary: string, details: string[], maxLength: number = ReservationLimits.reasonMaxLength): string {
  const cut = (value: string, length: number) => [...value].slice(0, Math.max(0, length)).join('');
  const unlisted = (count: number, listed: number) => (count === 0 ? '' : listed === 0 ? `: ${count} not listed` : ` and ${count} more`);
  let reason = cut(summary, maxLength);
  for (const [index, detail] of details.entries()) {
    const next = `${reason}${index === 0 ? ': ' : ', '}${detail}`;
    // Accept a detail only if the count of those after it still fits behind it.
    if (codePointLength(next + unlisted(details.length - index - 1, index + 1)) > maxLength) {
      return cut(reason + unlisted(details.length - index, index), maxLength);
    }
    reason = next;
  }
  return reason;
}

const reservedLine = tolerantRecord({
  sku: text({ pattern: SKU_PATTERN }),
  quantity: integer({ min: 1, max: OrderLimits.quantityPerSkuMax }),
});

const stockReserved = tolerantRecord({
  orderId: uuid(),
  items: list(reservedLine, { min: 1, max: OrderLimits.linesMax }),
  reservedAt: timestamp(),
});

const stockRejected = tolerantRecord({
  orderId: uuid(),
  reasonCode: oneOf(RejectionCodes),
  /** For operators and logs: orders never shows this text to a customer (it writes its own from the code). */
  reason: text({ maxLength: ReservationLimits.reasonMaxLength }),
  /**
   * The SKUs the code is about (unknown, or short of stock), in the SKU format and no more than an
   * order has lines: what orders may name in its own text. Optional, added to v1 compatibly.
   */
  skus: list(text({ pattern: SKU_PATTERN }), { min: 0, max: OrderLimits.linesMax }).optional(),
  rejectedAt: timestamp(),
});

const stockReleased = tolerantRecord({
  orderId: uuid(),
  items: list(reservedLine, { min: 0, max: OrderLimits.linesMax }),
  releasedAt: timestamp(),
});

export type ReservedLine = z.infer<typeof reservedLine>;
export type StockReserved = z.infer<typeof stockReserved>;
export type StockRejected = z.infer<typeof stockRejected>;
export type StockReleased = z.infer<typeof stockReleased>;

/** The messages of `inventory.reservation.v1`, each declared once: type, schema version, payload schema. */
export const ReservationEvents = {
  StockReserved: {
    topic: Topics.reservations,
    producer: 'inventory',
    type: 'StockReserved',
    schemaVersion: 1,
    schema: stockReserved,
    aggregateIdField: 'orderId',
  } satisfies MessageDeclaration<StockReserved>,
  StockRejected: {
    topic: Topics.reservations,
    producer: 'inventory',
    type: 'StockRejected',
    schemaVersion: 1,
    schema: stockRejected,
    aggregateIdField: 'orderId',
  } satisfies MessageDeclaration<StockRejected>,
  StockReleased: {
    topic: Topics.reservations,
    producer: 'inventory',
    type: 'StockReleased',
    schemaVersion: 1,
    schema: stockReleased,
    aggregateIdField: 'orderId',
  } satisfies MessageDeclaration<StockReleased>,
} as const;
