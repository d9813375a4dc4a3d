import { IsInt, IsString, IsUUID, Length, Max, Min } from 'class-validator';

export class RecordAccrualRequest {
  @IsString()
  @Length(1, 64)
  customerId: string;

  @IsUUID()
  orderId: string;

  @IsInt()
  @Min(1)
  @Max(1_000_000)
  points: number;
}
