import { OrderChecks } from './order-events.js';
import { check } from './payload-checks.js';

/** The body inventory sends to loyalty's `POST /accruals` (with the operation id as Idempotency-Key). */
export interface AccrualRequest {
  customerId: string;
  orderId: string;
  points: number;
}

/**
 * Limits of an accrual, sized for what inventory can send: one point per 100 cents of an order
 * total, and an order total is at most `OrderLimits.totalCentsMax` (10^9 cents), so at most 10^7
 * points (a Postgres `int` holds them). Issue 7: loyalty refused 2,000,000 points that inventory
 * had computed for an order the API accepted, and the command was parked.
 */
export const AccrualLimits = {
  pointsMax: 10_000_000,
} as const;

/** The checks of each field of an accrual, shared by loyalty's HTTP request and inventory's command. */
export const AccrualChecks = {
  customerId: OrderChecks.customerId,
  orderId: check.uuid(),
  points: check.integer({ min: 1, max: AccrualLimits.pointsMax }),
} as const;

/** The whole request body, checked by inventory before it stores the command it will send. */
export const accrualRequestCheck = check.object(AccrualChecks);
