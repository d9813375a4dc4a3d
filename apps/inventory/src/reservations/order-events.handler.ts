import { Injectable } from '@nestjs/common';
import { eachMessage, type HandlerMap, type InboxHandler } from '@libs/inbox';
import type { OrderEventsAccepted } from '../inventory.consumes.js';
import { ReleaseStockService } from './release-stock/release-stock.service.js';
import { ReserveStockService } from './reserve-stock/reserve-stock.service.js';

/**
 * `orders.order.v1` through the inbox: a run of OrderCreated is reserved set-based (a fixed number
 * of statements for the whole run); OrderCancelled, rare, is released one at a time.
 */
@Injectable()
export class OrderEventsHandler implements InboxHandler<OrderEventsAccepted> {
  constructor(
    private readonly reserveStock: ReserveStockService,
    private readonly releaseStock: ReleaseStockService,
  ) {}

  readonly handlers: HandlerMap<OrderEventsAccepted> = {
    OrderCreated: (orders) => this.reserveStock.reserve(orders),
    OrderCancelled: eachMessage((cancel) => this.releaseStock.release(cancel)),
  };
}
