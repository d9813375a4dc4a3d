import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { OrderChecks, OrderLimits } from '@app/contracts';
import { Satisfies } from '@app/http';

/**
 * Every field is checked by the `OrderCreated` contract's own field checks: the API accepts
 * exactly what inventory will accept, and every limit lives in `OrderLimits`.
 */
export class OrderLineRequest {
  @Satisfies(OrderChecks.sku)
  sku: string;

  @Satisfies(OrderChecks.quantity)
  quantity: number;

  @Satisfies(OrderChecks.unitPriceCents)
  unitPriceCents: number;
}

export class PlaceOrderRequest {
  @Satisfies(OrderChecks.customerId)
  customerId: string;

  /**
   * Lines of one SKU may repeat (inventory merges them), but their units are summed against the
   * per-SKU limit, and the order total is bounded: both are the contract's `lineTotals` rule.
   */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(OrderLimits.linesMax)
  @ValidateNested({ each: true })
  @Type(() => OrderLineRequest)
  @Satisfies(OrderChecks.lineTotals)
  items: OrderLineRequest[];
}
