import { IsInt, Max, Min } from 'class-validator';

export class SetStockRequest {
  /** Units available for new reservations; reserved units are not touched. */
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  available: number;
}
