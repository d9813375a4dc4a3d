import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { SKU_PATTERN } from '@app/contracts';

export class OrderLineRequest {
  @IsString()
  @Matches(SKU_PATTERN, { message: 'sku must be 1 to 64 upper-case letters, digits or dashes' })
  sku: string;

  @IsInt()
  @Min(1)
  @Max(1000)
  quantity: number;

  @IsInt()
  @Min(0)
  @Max(100_000_000)
  unitPriceCents: number;
}

export class PlaceOrderRequest {
  @IsString()
  @Length(1, 64)
  customerId: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => OrderLineRequest)
  items: OrderLineRequest[];
}
