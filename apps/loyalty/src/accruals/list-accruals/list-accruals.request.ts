import { AccrualFields } from '@app/contracts';
import { Satisfies } from '@app/http';

export class ListAccrualsRequest {
  /** The same schema as an accrual's customer, so every customer that can earn points can be listed. */
  @Satisfies(AccrualFields.customerId, { example: 'c1' })
  customerId: string;
}
