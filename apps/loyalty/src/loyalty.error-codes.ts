/**
 * The codes of the errors loyalty answers itself, stable `DOMAIN.REASON` strings: inventory's
 * dispatcher and operators branch on them, so a code is never renamed or reused. Request-level
 * codes (`REQUEST.*`, `IDEMPOTENCY.*`) come from `@libs/http` and `@libs/idempotency`.
 */
export const LoyaltyErrorCodes = {
  /**
   * A reversal names an order with no accrual yet (409): the accrual may still be on its way (the
   * commands of one order are not sent in order), so the caller retries; nothing is recorded.
   */
  ACCRUAL_NOT_FOUND: 'LOYALTY.ACCRUAL_NOT_FOUND',
  /**
   * An accrual names an order already credited, with another customer or other points (422): one
   * order earns points once; parked for a human. The same accrual again answers the existing one.
   */
  ACCRUAL_MISMATCH: 'LOYALTY.ACCRUAL_MISMATCH',
  /** A reversal's customer or points differ from the order's accrual (422): it would not undo it. */
  REVERSAL_MISMATCH: 'LOYALTY.REVERSAL_MISMATCH',
} as const;
