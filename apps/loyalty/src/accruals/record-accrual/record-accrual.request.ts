import { AccrualChecks } from '@app/contracts';
import { Satisfies } from '@app/http';

/**
 * Checked by the accrual contract's field checks, the same ones inventory runs before it stores a
 * command: loyalty's limits match what inventory can send (`AccrualLimits`).
 */
export class RecordAccrualRequest {
  @Satisfies(AccrualChecks.customerId)
  customerId: string;

  @Satisfies(AccrualChecks.orderId)
  orderId: string;

  @Satisfies(AccrualChecks.points)
  points: number;
}
