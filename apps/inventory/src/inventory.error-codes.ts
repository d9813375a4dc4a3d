import { RejectionCodes } from '@libs/contracts';

/**
 * The codes inventory answers with, stable `DOMAIN.REASON` strings: in HTTP error bodies and, for
 * the rejection codes, in the `reasonCode` of a `StockRejected` event (declared once, in
 * `@libs/contracts`, because orders reads them too). Never renamed or reused.
 */
export const InventoryErrorCodes = {
  ...RejectionCodes,
  /** A reserved order's loyalty accrual would break loyalty's contract: a bug in the limits (its inbox retries, then dead-letters it). */
  INVALID_LOYALTY_COMMAND: 'INVENTORY.INVALID_LOYALTY_COMMAND',
} as const;

/** One of {@link InventoryErrorCodes}. */
export type InventoryErrorCode = (typeof InventoryErrorCodes)[keyof typeof InventoryErrorCodes];
