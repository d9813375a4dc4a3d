/**
 * The codes of the errors orders answers itself, stable `DOMAIN.REASON` strings: clients branch on
 * them, so a code is never renamed or reused. Request-level codes (`REQUEST.*`, `IDEMPOTENCY.*`)
 * come from `@app/http` and `@app/idempotency`.
 */
export const OrdersErrorCodes = {
  /** No order has this id (404). */
  NOT_FOUND: 'ORDERS.NOT_FOUND',
  /** The order reached a state that cannot be cancelled, e.g. REJECTED (409). */
  NOT_CANCELLABLE: 'ORDERS.NOT_CANCELLABLE',
} as const;

/** One of {@link OrdersErrorCodes}. */
export type OrdersErrorCode = (typeof OrdersErrorCodes)[keyof typeof OrdersErrorCodes];
