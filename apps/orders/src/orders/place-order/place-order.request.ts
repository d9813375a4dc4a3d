import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { OrderFields } from '@libs/contracts';
import { Satisfies, SetByServer } from '@libs/http';

const PRICED_BY_SERVER = 'orders prices every line from its price list; send only sku and quantity';

/**
 * Every field is checked and documented by the `OrderCreated` contract's own field schemas: the
 * API accepts exactly what inventory will accept, its OpenAPI schema states the same limits, and
 * every limit lives in `OrderLimits`. A line has no price: the server sets it (a client-set price let anyone order at any price).
 */
export class OrderLineRequest {
  @Satisfies(OrderFields.sku, { example: 'SKU-APPLE', description: 'A SKU on the price list' })
  sku: string;

  @Satisfies(OrderFields.quantity, { example: 2 })
  quantity: number;

  /** Refused with 400 naming `items[i].unitPriceCents`: clients of the first version sent it. */
  @SetByServer(PRICED_BY_SERVER)
  unitPriceCents?: never;
}

/**
 * No `customerId`: the customer is the bearer token's subject, never a body field, so nobody can
 * order (or earn points) in another's name. A body that still sends one is refused 400 naming it.
 */
export class PlaceOrderRequest {
  /**
   * Lines of one SKU may repeat (inventory merges them), but their units are summed against the
   * per-SKU limit: the contract's rules over the lines. Each line is then validated with its own
   * fields; the total at list prices is checked once the lines are priced.
   */
  @Satisfies(OrderFields.lines, { type: [OrderLineRequest] })
  @ValidateNested({ each: true })
  @Type(() => OrderLineRequest)
  items: OrderLineRequest[];

  /** The total follows from the server's prices; a client's is refused with 400 naming `totalCents`. */
  @SetByServer(PRICED_BY_SERVER)
  totalCents?: never;
}
