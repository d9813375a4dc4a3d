import type { OutgoingCommand } from '@libs/commands';
import { type ReversalRequest, ReversalRequestSchema } from '@libs/contracts';
import { schemaProblems } from '@libs/envelope';

/** The business operation id of an order's reversal: the same order always yields the same key. */
export function reversalOperationId(orderId: string): string {
  return `loyalty-reversal:${orderId}`;
}

/** Thrown when a reversal would break loyalty's contract: a bug, never parked silently. */
class LoyaltyReversalRejectedError extends Error {
  constructor(orderId: string, problems: string[]) {
    super(`INVENTORY.INVALID_LOYALTY_COMMAND: the reversal of order ${orderId} violates loyalty's contract: ${problems.join('; ')}`);
    this.name = 'LoyaltyReversalRejectedError';
  }
}

/**
 * The compensation a released reservation owes: `POST /reversals` of the points its accrual
 * credited, under its own operation id, through the same command table and dispatcher as the
 * accrual. Undefined when the accrual credited nothing (no accrual command was written, so there
 * is nothing to take back). Checked as loyalty will check it, like the accrual.
 */
export function loyaltyReversalCommand(accrued: ReversalRequest): (OutgoingCommand & { body: ReversalRequest }) | undefined {
  if (accrued.points <= 0) return undefined;
  const body: ReversalRequest = { customerId: accrued.customerId, orderId: accrued.orderId, points: accrued.points };
  const problems = schemaProblems(ReversalRequestSchema, body, 'reversal');
  if (problems.length > 0) throw new LoyaltyReversalRejectedError(accrued.orderId, problems);
  return { id: reversalOperationId(accrued.orderId), path: '/reversals', body };
}
