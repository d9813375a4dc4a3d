import { ApiProperty } from '@nestjs/swagger';
import type { Reversal } from './reversal.entity.js';

/** One reversal: the points of an order's accrual, taken back. */
export class ReversalResponse {
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

export function toReversalResponse(reversal: Reversal): ReversalResponse {
  return {
    id: reversal.id,
    customerId: reversal.customerId,
    orderId: reversal.orderId,
    points: reversal.points,
    createdAt: reversal.createdAt.toISOString(),
  };
}
