import type { z } from 'zod';
import { integer, record, uuid } from './field-schemas.js';
import { OrderFields } from './order-events.js';

/**
 * Limits of an accrual, sized for what inventory can send: one point per 100 cents of an order
 * total, and an order total is at most `OrderLimits.totalCentsMax` (10^9 cents), so at most 10^7
 * points (a Postgres `int` holds them). Once, loyalty refused 2,000,000 points that inventory
 * had computed for an order the API accepted, and the command was parked.
 */
export const AccrualLimits = {
  pointsMax: 10_000_000,
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
