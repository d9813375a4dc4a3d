import { OrderLimits } from './order-limits.js';
import { SKU_PATTERN } from './order-events.js';
import { check, codePointLength } from './payload-checks.js';

export interface ReservedLine {
  sku: string;
  quantity: number;
}

export interface StockReserved {
  orderId: string;
  items: ReservedLine[];
  reservedAt: string;
}

/**
 * Stable codes: they cross process boundaries, so they never change meaning.
 * `INVENTORY.ORDER_CANCELLED`: the order's `OrderCancelled` reached inventory before its
 * `OrderCreated` (a replayed dead letter, a redelivery after a rebalance), so nothing is reserved.
 */
export const RejectionCodes = ['INVENTORY.UNKNOWN_SKU', 'INVENTORY.INSUFFICIENT_STOCK', 'INVENTORY.ORDER_CANCELLED'] as const;
export type RejectionCode = (typeof RejectionCodes)[number];

export interface StockRejected {
  orderId: string;
  reasonCode: RejectionCode;
  reason: string;
  rejectedAt: string;
}

export interface StockReleased {
  orderId: string;
  items: ReservedLine[];
  releasedAt: string;
}

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
 * pair). Lengths count code points, as the contract does. Issue 7: ten unknown 64-character SKUs made a
 * 700-character reason that the orders side dead-lettered.
 */
export function rejectionReason(summary: string, details: string[], maxLength: number = ReservationLimits.reasonMaxLength): string {
  const cut = (text: string, length: number) => [...text].slice(0, Math.max(0, length)).join('');
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

const reservedLine = check.object({
  sku: check.string({ pattern: SKU_PATTERN }),
  quantity: check.integer({ min: 1, max: OrderLimits.quantityPerSkuMax }),
});

export const ReservationEvents = {
  StockReserved: {
    type: 'StockReserved',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      items: check.array(reservedLine, { min: 1, max: OrderLimits.linesMax }),
      reservedAt: check.timestamp(),
    }),
  },
  StockRejected: {
    type: 'StockRejected',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      reasonCode: check.oneOf(RejectionCodes),
      reason: check.string({ maxLength: ReservationLimits.reasonMaxLength }),
      rejectedAt: check.timestamp(),
    }),
  },
  StockReleased: {
    type: 'StockReleased',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      items: check.array(reservedLine, { min: 0, max: OrderLimits.linesMax }),
      releasedAt: check.timestamp(),
    }),
  },
} as const;
