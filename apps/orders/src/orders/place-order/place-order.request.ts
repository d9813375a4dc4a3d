import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { SKU_PATTERN } from '@app/contracts';

// class-validator decides; @ApiProperty only describes (the swc build runs no swagger plugin that
// could read the validators), so each bound is written next to the validator that enforces it.
export class OrderLineRequest {
  @ApiProperty({ pattern: SKU_PATTERN.source, example: 'SKU-APPLE' })
  @IsString()
  @Matches(SKU_PATTERN, { message: 'sku must be 1 to 64 upper-case letters, digits or dashes' })
  sku: string;

  @ApiProperty({ minimum: 1, maximum: 1000, example: 2 })
  @IsInt()
  @Min(1)
  @Max(1000)
  quantity: number;

  @ApiProperty({ minimum: 0, maximum: 100_000_000, example: 1050 })
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  unitPriceCents: number;
}

export class PlaceOrderRequest {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'c1' })
  @IsString()
  @Length(1, 64)
  customerId: string;

  @ApiProperty({ type: [OrderLineRequest], minItems: 1, maxItems: 50 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => OrderLineRequest)
  items: OrderLineRequest[];
}
