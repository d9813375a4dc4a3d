import { ApiProperty } from '@nestjs/swagger';

/** A customer's points: what was credited, what was taken back, and what is left. */
export class BalanceResponse {
  @ApiProperty({ example: 'c1' })
  customerId: string;

  @ApiProperty({ example: 21, description: 'Sum of the points of all accruals' })
  accruedPoints: number;

  @ApiProperty({ example: 0, description: 'Sum of the points of all reversals (cancelled orders)' })
  reversedPoints: number;

  @ApiProperty({ example: 21, description: 'accruedPoints - reversedPoints' })
  balancePoints: number;
}
