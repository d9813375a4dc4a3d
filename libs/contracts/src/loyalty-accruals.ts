import type { z } from 'zod';
import { integer, list, record, text, uuid } from './field-schemas.js';
import { OrderFields } from './order-events.js';

/**
 * Limits of an accrual, sized for what inventory can send: one point per 100 cents of an order
 * total, and an order total is at most `OrderLimits.totalCentsMax` (10^9 cents), so at most 10^7
 * points (a Postgres `int` holds them). Once, loyalty refused 2,000,000 points that inventory
 * had computed for an order the API accepted, and the command was parked.
 */
export const AccrualLimits = {
  pointsMax: 10_000_000,
  /** Accruals in one `POST /accruals/batch`: inventory's dispatcher claims at most its batch size at a time. */
  batchMax: 100,
  /** An accrual's id in a batch is the caller's operation id, as long as an Idempotency-Key may be. */
  batchIdMaxLength: 200,
} as const;

/**
 * The OAuth scope a caller of loyalty's `POST /accruals` needs: granted to inventory's service
 * client (client credentials) only, so no customer can credit points.
 */
export const LOYALTY_ACCRUALS_WRITE_SCOPE = 'loyalty:accruals:write';

/** The schema of each field of an accrual, shared by loyalty's HTTP request and inventory's command. */
export const AccrualFields = {
  customerId: OrderFields.customerId,
  orderId: uuid(),
  points: integer({ min: 1, max: AccrualLimits.pointsMax }),
} as const;

/** The body inventory sends to loyalty's `POST /accruals` (with the operation id as Idempotency-Key), checked before it stores the command. */
export const AccrualRequestSchema = record(AccrualFields);

export type AccrualRequest = z.infer<typeof AccrualRequestSchema>;

/**
 * One accrual of `POST /accruals/batch`: the body `POST /accruals` takes, under the operation id the
 * caller would send as its Idempotency-Key (inventory's `loyalty-accrual:<orderId>`), echoed in the
 * answer so the caller can match each result to its command.
 */
const AccrualBatchItemSchema = record({
  id: text({ maxLength: AccrualLimits.batchIdMaxLength }),
  body: AccrualRequestSchema,
});

/** The fields of `POST /accruals/batch`: 1 to `AccrualLimits.batchMax` accruals. */
export const AccrualBatchFields = {
  id: AccrualBatchItemSchema.shape.id,
  commands: list(AccrualBatchItemSchema, { min: 1, max: AccrualLimits.batchMax }),
} as const;
