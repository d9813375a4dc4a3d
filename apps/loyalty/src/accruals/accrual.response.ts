import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Accrual } from './accrual.entity.js';

/** One credited accrual. */
export class AccrualResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'c1' })
  customerId: string;

  @ApiProperty({ format: 'uuid' })
  orderId: string;

  @ApiProperty({ example: 21 })
  points: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/** A page of a customer's accruals, oldest first, and the sum of all of them. */
export class AccrualListResponse {
  @ApiProperty({ example: 'c1' })
  customerId: string;

  @ApiProperty({ example: 21, description: "Sum of all the customer's accruals, not only this page's" })
  totalPoints: number;

  @ApiProperty({ type: [AccrualResponse] })
  items: AccrualResponse[];

  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page; absent on the last page' })
  nextCursor?: string;
}

export function toAccrualResponse(accrual: Accrual): AccrualResponse {
  return {
    id: accrual.id,
    customerId: accrual.customerId,
    orderId: accrual.orderId,
    points: accrual.points,
    createdAt: accrual.createdAt.toISOString(),
  };
}
