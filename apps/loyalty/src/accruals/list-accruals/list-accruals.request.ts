import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class ListAccrualsRequest {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'c1' })
  @IsString()
  @Length(1, 64)
  customerId: string;
}
