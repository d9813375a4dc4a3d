import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { OrderFields } from '@app/contracts';
import { Satisfies } from '@app/http';

/**
 * Every field is checked and documented by the `OrderCreated` contract's own field schemas: the
 * API accepts exactly what inventory will accept, its OpenAPI schema states the same limits, and
 * every limit lives in `OrderLimits`.
 */
export class OrderLineRequest {
  @Satisfies(OrderFields.sku, { example: 'SKU-APPLE' })
  sku: string;

  @Satisfies(OrderFields.quantity, { example: 2 })
  quantity: number;

  @Satisfies(OrderFields.unitPriceCents, { example: 1050 })
  unitPriceCents: number;
}

/**
 * No `customerId`: the customer is the bearer token's subject, never a body field, so nobody can
 * order (or earn points) in another's name. A body that still sends one is refused 400 naming it.
 */
export class PlaceOrderRequest {
  /**
   * Lines of one SKU may repeat (inventory merges them), but their units are summed against the
   * per-SKU limit, and the order total is bounded: the contract's rules over the lines. Each line
   * is then validated with its own fields.
   */
  @Satisfies(OrderFields.lines, { type: [OrderLineRequest] })
  @ValidateNested({ each: true })
  @Type(() => OrderLineRequest)
  items: OrderLineRequest[];
}
