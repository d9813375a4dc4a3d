import { ApiProperty } from '@nestjs/swagger';
import { AccrualFields, OrderLimits } from '@app/contracts';
import { Satisfies } from '@app/http';

export class ListAccrualsRequest {
  /** The same check as an accrual's customer, so every customer that can earn points can be listed. */
  @ApiProperty({ minLength: 1, maxLength: OrderLimits.customerIdMaxLength, example: 'c1' })
  @Satisfies(AccrualFields.customerId)
  customerId: string;
}
