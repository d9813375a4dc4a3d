import { IsString, Length } from 'class-validator';

export class ListAccrualsRequest {
  @IsString()
  @Length(1, 64)
  customerId: string;
}
