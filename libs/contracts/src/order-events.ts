import { OrderLimits } from './order-limits.js';
import { check, type Check } from './payload-checks.js';

export interface OrderLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface OrderCreated {
  orderId: string;
  customerId: string;
  items: OrderLine[];
  totalCents: number;
  createdAt: string;
}

export interface OrderCancelled {
  orderId: string;
  customerId: string;
  cancelledAt: string;
}

export const SKU_PATTERN = new RegExp(`^[A-Z0-9][A-Z0-9-]{0,${OrderLimits.skuMaxLength - 1}}$`);

const isLine = (value: unknown): value is OrderLine => {
  const line = value as OrderLine;
  return typeof line === 'object' && line !== null && typeof line.sku === 'string' && Number.isSafeInteger(line.quantity) && Number.isSafeInteger(line.unitPriceCents);
};

/**
 * The rules that span lines: units per SKU summed over its lines, and the order total. Lines that
 * are malformed are skipped here (their own checks report them).
 */
const sumsOverLines: Check = (value, path) => {
  if (!Array.isArray(value)) return [];
  const lines = value.filter(isLine);
  const perSku = new Map<string, number>();
  for (const line of lines) perSku.set(line.sku, (perSku.get(line.sku) ?? 0) + line.quantity);
  const problems = [...perSku]
    .filter(([, quantity]) => quantity > OrderLimits.quantityPerSkuMax)
    .map(([sku, quantity]) => `${path} hold ${quantity} units of ${sku} over its lines; at most ${OrderLimits.quantityPerSkuMax} units per SKU`);
  const total = lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
  if (total > OrderLimits.totalCentsMax) problems.push(`${path} total ${total} cents; an order total must be at most ${OrderLimits.totalCentsMax} cents`);
  return problems;
};

/** {@link sumsOverLines} with its schema: JSON Schema cannot sum over array entries, so the rule is stated in words. */
const lineTotals = check.rule(
  `Units of one SKU summed over its lines: at most ${OrderLimits.quantityPerSkuMax}. Sum of quantity x unitPriceCents over the lines: at most ${OrderLimits.totalCentsMax} cents.`,
  sumsOverLines,
);

/** The checks of each field of an order, shared by the HTTP request and the event contracts. */
export const OrderChecks = {
  customerId: check.string({ maxLength: OrderLimits.customerIdMaxLength }),
  sku: check.string({ pattern: SKU_PATTERN, description: `must be 1 to ${OrderLimits.skuMaxLength} upper-case letters, digits or dashes` }),
  quantity: check.integer({ min: 1, max: OrderLimits.quantityPerSkuMax }),
  unitPriceCents: check.integer({ min: 0, max: OrderLimits.unitPriceCentsMax }),
  lineTotals,
  totalCents: check.integer({ min: 0, max: OrderLimits.totalCentsMax }),
} as const;

const orderLine = check.object({ sku: OrderChecks.sku, quantity: OrderChecks.quantity, unitPriceCents: OrderChecks.unitPriceCents });

export const OrderEvents = {
  OrderCreated: {
    type: 'OrderCreated',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      customerId: OrderChecks.customerId,
      items: check.all(check.array(orderLine, { min: 1, max: OrderLimits.linesMax }), OrderChecks.lineTotals),
      totalCents: OrderChecks.totalCents,
      createdAt: check.timestamp(),
    }),
  },
  OrderCancelled: {
    type: 'OrderCancelled',
    schemaVersion: 1,
    validate: check.object({
      orderId: check.uuid(),
      customerId: OrderChecks.customerId,
      cancelledAt: check.timestamp(),
    }),
  },
} as const;
