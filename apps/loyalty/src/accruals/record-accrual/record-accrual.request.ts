import { AccrualFields } from '@libs/contracts';
import { Satisfies } from '@libs/http';

/**
 * Checked and documented by the accrual contract's field schemas, the same ones inventory runs
 * before it stores a command: loyalty's limits match what inventory can send (`AccrualLimits`).
 */
export class RecordAccrualRequest {
  @Satisfies(AccrualFields.customerId, { example: 'c1' })
  customerId: string;

  @Satisfies(AccrualFields.orderId)
  orderId: string;

  @Satisfies(AccrualFields.points, { example: 21 })
  points: number;
}
