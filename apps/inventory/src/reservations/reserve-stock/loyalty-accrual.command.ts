import type { CommandBatching, OutgoingCommand } from '@libs/commands';
import { AccrualLimits, type AccrualRequest, AccrualRequestSchema, type OrderCreated } from '@libs/contracts';
import { CodedError, schemaProblems } from '@libs/envelope';
import { type InventoryErrorCode, InventoryErrorCodes } from '../../inventory.error-codes.js';
import { pointsFor } from './points-for.js';

/** Inventory's table of loyalty calls: `@libs/commands` creates it (`createCommandsTable`) and sends its rows. */
export const LOYALTY_COMMANDS_TABLE = 'loyalty_commands';

/** Where an accrual goes: loyalty's `POST /accruals`, one per order. */
const ACCRUALS_PATH = '/accruals';

/**
 * How the dispatcher sends accruals when it has claimed several: loyalty's `POST /accruals/batch`,
 * one request and one statement for up to `AccrualLimits.batchMax` of them.
 */
export const LOYALTY_BATCHING: CommandBatching = {
  paths: { [ACCRUALS_PATH]: '/accruals/batch' },
  maxCommands: AccrualLimits.batchMax,
};

/** The business operation id of an order's accrual: the same order always yields the same key. */
export function accrualOperationId(orderId: string): string {
  return `loyalty-accrual:${orderId}`;
}

/** Thrown when a loyalty command would break loyalty's contract: a bug in the limits, never parked silently. */
class LoyaltyCommandRejectedError extends CodedError<InventoryErrorCode> {
  constructor(orderId: string, problems: string[]) {
    super(
      InventoryErrorCodes.INVALID_LOYALTY_COMMAND,
      `the accrual of order ${orderId} violates loyalty's contract: ${problems.join('; ')}`,
    );
  }
}

/**
 * The loyalty call a reserved order owes, `POST /accruals` of its points under its operation id,
 * or undefined when it earns no points. Checked as loyalty
 * will check it: a command loyalty would refuse fails the reservation transaction now (and the
 * order is retried, then dead-lettered, visibly) instead of being parked later.
 */
export function loyaltyAccrualCommand(
  order: Pick<OrderCreated, 'orderId' | 'customerId' | 'totalCents'>,
): (OutgoingCommand & { body: AccrualRequest }) | undefined {
  const points = pointsFor(order.totalCents);
  if (points <= 0) return undefined;
  const body: AccrualRequest = { customerId: order.customerId, orderId: order.orderId, points };
  const problems = schemaProblems(AccrualRequestSchema, body, 'accrual');
  if (problems.length > 0) throw new LoyaltyCommandRejectedError(order.orderId, problems);
  return { id: accrualOperationId(order.orderId), path: ACCRUALS_PATH, body };
}
