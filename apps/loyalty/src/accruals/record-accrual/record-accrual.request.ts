import { ApiProperty } from '@nestjs/swagger';
import { AccrualFields, AccrualLimits, OrderLimits } from '@app/contracts';
import { Satisfies } from '@app/http';

/**
 * Checked by the accrual contract's field checks, the same ones inventory runs before it stores a
 * command: loyalty's limits match what inventory can send (`AccrualLimits`). `@ApiProperty` only
 * describes, from the same limits.
 */
export class RecordAccrualRequest {
  @ApiProperty({ minLength: 1, maxLength: OrderLimits.customerIdMaxLength, example: 'c1' })
  @Satisfies(AccrualFields.customerId)
  customerId: string;

  @ApiProperty({ format: 'uuid' })
  @Satisfies(AccrualFields.orderId)
  orderId: string;

  @ApiProperty({ minimum: 1, maximum: AccrualLimits.pointsMax, example: 21 })
  @Satisfies(AccrualFields.points)
  points: number;
}
