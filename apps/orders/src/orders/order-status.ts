/**
 * PENDING until inventory answers; RESERVED or REJECTED then. CANCELLED by the customer, from
 * PENDING or RESERVED. A reservation that arrives after a cancel leaves the order CANCELLED.
 */
export const OrderStatus = {
  Pending: 'PENDING',
  Reserved: 'RESERVED',
  Rejected: 'REJECTED',
  Cancelled: 'CANCELLED',
} as const;

export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

export const CANCELLABLE_STATUSES: readonly OrderStatus[] = [OrderStatus.Pending, OrderStatus.Reserved];
