/**
 * The limits of an order, declared once. The HTTP request (orders), the business rules (inventory
 * merging lines per SKU, loyalty points per order) and the `OrderCreated`/`StockReserved` contracts
 * all read them from here, so an order the API accepts always has a valid answer (never one the consumer refuses after the API said yes).
 * Lengths count Unicode code points ({@link codePointLength}).
 */
export const OrderLimits = {
  /** Characters of `customerId`. */
  customerIdMaxLength: 64,
  /** Characters of a SKU (upper-case letters, digits, dashes). */
  skuMaxLength: 64,
  /** Lines of one order. */
  linesMax: 50,
  /**
   * Units of one SKU in one order, summed over its lines: inventory reserves per SKU, and its
   * `StockReserved` line carries the sum, so the limit applies to the sum, not to each line.
   */
  quantityPerSkuMax: 1000,
  /** Price of one unit, in cents. */
  unitPriceCentsMax: 100_000_000,
  /**
   * Sum of quantity x unit price over the lines, in cents (10 million currency units). It bounds
   * the loyalty points inventory computes from it (one per 100 cents: at most 10 million), which
   * fit a Postgres `int` and loyalty's own limit ({@link AccrualLimits}).
   */
  totalCentsMax: 1_000_000_000,
} as const;
