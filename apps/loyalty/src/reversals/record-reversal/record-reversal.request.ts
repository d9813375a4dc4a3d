import { AccrualFields } from '@libs/contracts';
import { Satisfies } from '@libs/http';

/**
 * Checked and documented by the reversal contract (`ReversalRequestSchema`: the accrual's fields),
 * the one inventory runs before it stores the command: a reversal names the accrual it undoes.
 */
export class RecordReversalRequest {
  @Satisfies(AccrualFields.customerId, { example: 'c1' })
  customerId: string;

  @Satisfies(AccrualFields.orderId)
  orderId: string;

  @Satisfies(AccrualFields.points, { example: 21, description: "The points of the order's accrual" })
  points: number;
}
