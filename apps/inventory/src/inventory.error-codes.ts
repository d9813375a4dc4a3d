/**
 * The codes inventory answers with, stable `DOMAIN.REASON` strings: in HTTP error bodies and in
 * the `reasonCode` of a `StockRejected` event, which orders stores and shows. Never renamed or reused.
 */
export const InventoryErrorCodes = {
  /** No stock item has this SKU (404 on the stock API; a rejection when an order names it). */
  UNKNOWN_SKU: 'INVENTORY.UNKNOWN_SKU',
  /** A line asks for more than is available: the order is rejected. */
  INSUFFICIENT_STOCK: 'INVENTORY.INSUFFICIENT_STOCK',
  /** The order's cancellation arrived before its creation: nothing is reserved. */
  ORDER_CANCELLED: 'INVENTORY.ORDER_CANCELLED',
} as const;
