import type { MessageDeclaration } from '@libs/envelope';
import { z } from 'zod';
import { integer, list, tolerantRecord, text, timestamp, uuid } from './field-schemas.js';
import { OrderLimits } from './order-limits.js';
import { Topics } from './topics.js';

export const SKU_PATTERN = new RegExp(`^[A-Z0-9][A-Z0-9-]{0,${OrderLimits.skuMaxLength - 1}}$`);

/**
 * Sum of quantity x unit price over priced lines, in cents: the one definition of an order total,
 * used by orders when it prices an order and by the contract's limit on the lines' total.
 */
export function orderTotalCents(lines: readonly { quantity: number; unitPriceCents: number }[]): number {
  return lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
}

const isCounted = (value: unknown): value is { sku: string; quantity: number } => {
  const line = value as { sku: unknown; quantity: unknown };
  return typeof line === 'object' && line !== null && typeof line.sku === 'string' && Number.isSafeInteger(line.quantity);
};

const isPriced = (value: unknown): value is { sku: string; quantity: number; unitPriceCents: number } =>
  isCounted(value) && Number.isSafeInteger((value as { unitPriceCents?: unknown }).unitPriceCents);

/**
 * The rules that span lines, which JSON Schema cannot express (a sum over array entries): units per
 * SKU summed over its lines, and the order total. Lines that are malformed are skipped here (their
 * own checks report them), and the rule runs even when some are: every problem is reported at once.
 * The total is checked over priced lines only: a request's lines carry no price (orders prices them
 * from its price list, never from the request, and checks the total it computes), an event's lines all do.
 */
const lineTotals = z.superRefine(
  (value: unknown, context) => {
    if (!Array.isArray(value)) return;
    const perSku = new Map<string, number>();
    for (const line of value.filter(isCounted)) perSku.set(line.sku, (perSku.get(line.sku) ?? 0) + line.quantity);
    for (const [sku, quantity] of perSku) {
      if (quantity > OrderLimits.quantityPerSkuMax) {
        context.addIssue({
          code: 'custom',
          input: value,
          message: `hold ${quantity} units of ${sku} over its lines; at most ${OrderLimits.quantityPerSkuMax} units per SKU`,
        });
      }
    }
    const total = orderTotalCents(value.filter(isPriced));
    if (total > OrderLimits.totalCentsMax) {
      context.addIssue({
        code: 'custom',
        input: value,
        message: `total ${total} cents; an order total must be at most ${OrderLimits.totalCentsMax} cents`,
      });
    }
  },
  { when: () => true },
);

/**
 * The lines of an order: 1 to `linesMax` of `line`, and the rules over them, which the published
 * JSON Schema states in words.
 */
const linesOf = <T extends z.ZodType>(line: T) =>
  list(line, { min: 1, max: OrderLimits.linesMax })
    .check(lineTotals)
    .meta({
      description: `Units of one SKU summed over its lines: at most ${OrderLimits.quantityPerSkuMax}. Sum of quantity x unitPriceCents over the lines: at most ${OrderLimits.totalCentsMax} cents.`,
    });

/** The schema of each field of an order, shared by the HTTP request and the event contracts. */
export const OrderFields = {
  customerId: text({ maxLength: OrderLimits.customerIdMaxLength }),
  sku: text({ pattern: SKU_PATTERN, description: `must be 1 to ${OrderLimits.skuMaxLength} upper-case letters, digits or dashes` }),
  quantity: integer({ min: 1, max: OrderLimits.quantityPerSkuMax }),
  unitPriceCents: integer({ min: 0, max: OrderLimits.unitPriceCentsMax }),
  /**
   * The lines as a list (1 to `linesMax`, units per SKU, and the order total over lines that carry
   * a price) without checking each line: for a request whose lines are validated one by one with
   * the fields above.
   */
  lines: linesOf(z.unknown()),
  totalCents: integer({ min: 0, max: OrderLimits.totalCentsMax }),
} as const;

const orderLine = tolerantRecord({ sku: OrderFields.sku, quantity: OrderFields.quantity, unitPriceCents: OrderFields.unitPriceCents });
export type OrderLine = z.infer<typeof orderLine>;

/**
 * `totalCents` must be the sum of its lines: consumers act on both (inventory on the lines, points
 * on the total), so a record where they differ (a forgery, or a producer bug) is refused at the inbox
 * instead of reserving one thing and crediting another.
 */
const totalMatchesLines = z.superRefine((order: { items: OrderLine[]; totalCents: number }, context) => {
  const sum = order.items.reduce((total, line) => total + line.quantity * line.unitPriceCents, 0);
  if (order.totalCents !== sum) {
    context.addIssue({
      code: 'custom',
      path: ['totalCents'],
      input: order.totalCents,
      message: `must equal the sum of the lines (${sum}), got ${order.totalCents}`,
    });
  }
});

const orderCreated = tolerantRecord({
  orderId: uuid(),
  customerId: OrderFields.customerId,
  items: linesOf(orderLine),
  totalCents: OrderFields.totalCents,
  createdAt: timestamp(),
}).check(totalMatchesLines);

const orderCancelled = tolerantRecord({
  orderId: uuid(),
  customerId: OrderFields.customerId,
  cancelledAt: timestamp(),
});

export type OrderCreated = z.infer<typeof orderCreated>;
export type OrderCancelled = z.infer<typeof orderCancelled>;

/** The messages of `orders.order.v1`, each declared once: type, schema version, payload schema. */
export const OrderEvents = {
  OrderCreated: {
    topic: Topics.orders,
    producer: 'orders',
    type: 'OrderCreated',
    schemaVersion: 1,
    schema: orderCreated,
    aggregateIdField: 'orderId',
  } satisfies MessageDeclaration<OrderCreated>,
  OrderCancelled: {
    topic: Topics.orders,
    producer: 'orders',
    type: 'OrderCancelled',
    schemaVersion: 1,
    schema: orderCancelled,
    aggregateIdField: 'orderId',
  } satisfies MessageDeclaration<OrderCancelled>,
} as const;
