import { check } from './payload-checks.js';
import { SKU_PATTERN } from './order-events.js';

export interface ReservedLine {
  sku: string;
  quantity: number;
}

export interface StockReserved {
  orderId: string;
  items: ReservedLine[];
  reservedAt: string;
}

/** Stable codes: they cross process boundaries, so they never change meaning. */
export const RejectionCodes = ['INVENTORY.UNKNOWN_SKU', 'INVENTORY.INSUFFICIENT_STOCK'] as const;
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

const reservedLine = check.object({
  sku: check.string({ pattern: SKU_PATTERN }),
  quantity: check.integer({ min: 1, max: 1000 }),
});

export const ReservationEvents = {
  StockReserved: {
    type: 'StockReserved',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      items: check.array(reservedLine, { min: 1, max: 50 }),
      reservedAt: check.timestamp(),
    }),
  },
  StockRejected: {
    type: 'StockRejected',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      reasonCode: check.oneOf(RejectionCodes),
      reason: check.string({ maxLength: 500 }),
      rejectedAt: check.timestamp(),
    }),
  },
  StockReleased: {
    type: 'StockReleased',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      items: check.array(reservedLine, { min: 0, max: 50 }),
      releasedAt: check.timestamp(),
    }),
  },
} as const;
