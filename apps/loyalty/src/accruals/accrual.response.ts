import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PointsEntryResponse, toPointsEntryResponse } from '../points/points-entry.response.js';
import type { Accrual } from './accrual.entity.js';

/** One credited accrual. */
export class AccrualResponse extends PointsEntryResponse {}

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
  return toPointsEntryResponse(accrual);
}
