import { HttpStatus } from '@nestjs/common';
import { ProblemException } from '@libs/http';
import { LoyaltyErrorCodes } from '../loyalty.error-codes.js';

/** What an order is already credited with. */
export interface CreditedAccrual {
  customerId: string;
  points: number;
}

/**
 * 422 `LOYALTY.ACCRUAL_MISMATCH` when an accrual names an order already credited with another
 * customer or other points; undefined when it says the same (the existing accrual is the answer).
 */
export function accrualMismatch(orderId: string, existing: CreditedAccrual, requested: CreditedAccrual): ProblemException | undefined {
  if (existing.customerId === requested.customerId && existing.points === requested.points) return undefined;
  const detail = `Order ${orderId} is already credited ${existing.points} points to ${existing.customerId}; this accrual names ${requested.points} points of ${requested.customerId}`;
  return new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, LoyaltyErrorCodes.ACCRUAL_MISMATCH, detail, [{ field: 'orderId', detail }]);
}
