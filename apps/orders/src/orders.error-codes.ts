/**
 * The codes of the errors orders answers itself, stable `DOMAIN.REASON` strings: clients branch on
 * them, so a code is never renamed or reused. Request-level codes (`REQUEST.*`, `IDEMPOTENCY.*`)
 * come from `@libs/http` and `@libs/idempotency`.
 */
export const OrdersErrorCodes = {
  /** No order has this id (404). */
  NOT_FOUND: 'ORDERS.NOT_FOUND',
  /** The order reached a state that cannot be cancelled, e.g. REJECTED (409). */
  NOT_CANCELLABLE: 'ORDERS.NOT_CANCELLABLE',
  /** A line names a SKU that is not on the price list; `fields` names each such line's `sku` (422). */
  UNKNOWN_SKU: 'ORDERS.UNKNOWN_SKU',
  /** The lines at list prices add up to more than an order total may be (422). */
  TOTAL_TOO_LARGE: 'ORDERS.TOTAL_TOO_LARGE',
  /** The customer placed orders faster than `ORDERS_CUSTOMER_RATE_PER_S` (bursts of `ORDERS_CUSTOMER_BURST`); with `Retry-After` (429). */
  RATE_LIMITED: 'ORDERS.RATE_LIMITED',
} as const;

/** One of {@link OrdersErrorCodes}. */
export type OrdersErrorCode = (typeof OrdersErrorCodes)[keyof typeof OrdersErrorCodes];
