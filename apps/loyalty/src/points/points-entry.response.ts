import { ApiProperty } from '@nestjs/swagger';

/** A row that moves a customer's points for an order: an accrual credited, or one taken back. */
interface PointsEntry {
  id: string;
  customerId: string;
  orderId: string;
  points: number;
  createdAt: Date;
}

/**
 * What loyalty answers for one movement of points. Accruals and reversals answer the same fields
 * under their own schema names (`AccrualResponse`, `ReversalResponse`, subclasses of this one), so
 * a client reads either the same way.
 */
export class PointsEntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'c1' }) customerId: string;
  @ApiProperty({ format: 'uuid' }) orderId: string;
  @ApiProperty({ example: 21 }) points: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export function toPointsEntryResponse(entry: PointsEntry): PointsEntryResponse {
  return {
    id: entry.id,
    customerId: entry.customerId,
    orderId: entry.orderId,
    points: entry.points,
    createdAt: entry.createdAt.toISOString(),
  };
}
