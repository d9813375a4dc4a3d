import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

export class SetStockRequest {
  /** Units available for new reservations; reserved units are not touched. */
  @ApiProperty({
    minimum: 0,
    maximum: 1_000_000_000,
    description: 'Units available for new reservations; reserved units are not touched',
    example: 100,
  })
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  available: number;
}
