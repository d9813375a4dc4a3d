import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, IsUUID, Length, Max, Min } from 'class-validator';

export class RecordAccrualRequest {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'c1' })
  @IsString()
  @Length(1, 64)
  customerId: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  orderId: string;

  @ApiProperty({ minimum: 1, maximum: 1_000_000, example: 21 })
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  points: number;
}
