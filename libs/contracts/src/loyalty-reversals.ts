import type { z } from 'zod';
import { record } from './field-schemas.js';
import { AccrualFields } from './loyalty-accruals.js';

/**
 * The body inventory sends to loyalty's `POST /reversals` (with `loyalty-reversal:<orderId>` as
 * Idempotency-Key) when a cancel releases a reservation: it takes back the points of the order's
 * accrual (the compensation of a cancel). The fields are the accrual's own, so a reversal states exactly
 * what it compensates; loyalty refuses one that does not match the accrual it holds.
 */
export const ReversalRequestSchema = record(AccrualFields);

export type ReversalRequest = z.infer<typeof ReversalRequestSchema>;
