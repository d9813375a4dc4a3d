import { AccrualFields } from '@app/contracts';
import { Satisfies } from '@app/http';

export class GetBalanceRequest {
  /** The same schema as an accrual's customer, so every customer that can earn points has a balance. */
  @Satisfies(AccrualFields.customerId, { example: 'c1' })
  customerId: string;
}
