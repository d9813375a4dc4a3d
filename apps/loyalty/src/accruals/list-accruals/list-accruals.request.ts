import { AccrualChecks } from '@app/contracts';
import { Satisfies } from '@app/http';

export class ListAccrualsRequest {
  /** The same check as an accrual's customer, so every customer that can earn points can be listed. */
  @Satisfies(AccrualChecks.customerId)
  customerId: string;
}
