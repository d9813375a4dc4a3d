import { ApiProperty } from '@nestjs/swagger';
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

/** A customer's accruals, oldest first, and their sum. */
export class AccrualListResponse {
  @ApiProperty({ example: 'c1' })
  customerId: string;

  @ApiProperty({ example: 21 })
  totalPoints: number;

  @ApiProperty({ type: [AccrualResponse] })
  items: AccrualResponse[];
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
