import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { OrderFields, OrderLimits, SKU_PATTERN } from '@app/contracts';
import { Satisfies } from '@app/http';

/**
 * Every field is checked by the `OrderCreated` contract's own field schemas: the API accepts
 * exactly what inventory will accept, and every limit lives in `OrderLimits`. `@ApiProperty` only
 * describes (the swc build runs no swagger plugin), from the same limits.
 */
export class OrderLineRequest {
  @ApiProperty({ pattern: SKU_PATTERN.source, maxLength: OrderLimits.skuMaxLength, example: 'SKU-APPLE' })
  @Satisfies(OrderFields.sku)
  sku: string;

  @ApiProperty({ minimum: 1, maximum: OrderLimits.quantityPerSkuMax, example: 2 })
  @Satisfies(OrderFields.quantity)
  quantity: number;

  @ApiProperty({ minimum: 0, maximum: OrderLimits.unitPriceCentsMax, example: 1050 })
  @Satisfies(OrderFields.unitPriceCents)
  unitPriceCents: number;
}

export class PlaceOrderRequest {
  @ApiProperty({ minLength: 1, maxLength: OrderLimits.customerIdMaxLength, example: 'c1', description: 'Length in Unicode code points' })
  @Satisfies(OrderFields.customerId)
  customerId: string;

  /**
   * Lines of one SKU may repeat (inventory merges them), but their units are summed against the
   * per-SKU limit, and the order total is bounded: both are the contract's `lineTotals` rule.
   */
  @ApiProperty({
    type: [OrderLineRequest],
    minItems: 1,
    maxItems: OrderLimits.linesMax,
    description: `Units of one SKU summed over its lines at most ${OrderLimits.quantityPerSkuMax}; order total at most ${OrderLimits.totalCentsMax} cents`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(OrderLimits.linesMax)
  @ValidateNested({ each: true })
  @Type(() => OrderLineRequest)
  @Satisfies(OrderFields.lineTotals)
  items: OrderLineRequest[];
}
