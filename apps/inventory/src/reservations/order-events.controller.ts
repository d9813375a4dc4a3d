import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { type OrderCancelled, type OrderCreated, OrderEvents, Topics } from '@app/contracts';
import { Envelope, Inbox, type InboxEnvelope } from '@app/inbox';
import { annotateLog } from '@app/telemetry';
import { ReleaseStockService } from './release-stock/release-stock.service.js';
import { ReserveStockService } from './reserve-stock/reserve-stock.service.js';
import { StockBatchLocks } from './stock-batch-locks.js';
import { InventoryFailpoints } from '../inventory.failpoints.js';

/** Consumes `orders.order.v1` through the inbox: reserve on OrderCreated, release on OrderCancelled. */
@Controller()
export class OrderEventsController {
  constructor(
    private readonly reserveStock: ReserveStockService,
    private readonly releaseStock: ReleaseStockService,
  ) {}

  @EventPattern(Topics.orders)
  @Inbox({
    consumer: 'inventory.order-events',
    accepts: [OrderEvents.OrderCreated, OrderEvents.OrderCancelled],
    afterCommitFailpoint: InventoryFailpoints.afterCommitBeforeAck,
    beforeCommitFailpoint: InventoryFailpoints.afterHandlerBeforeCommit,
    batchLocks: StockBatchLocks,
  })
  async handle(@Envelope() envelope: InboxEnvelope): Promise<void> {
    annotateLog({ orderId: (envelope.payload as { orderId: string }).orderId });
    if (envelope.messageType === OrderEvents.OrderCreated.type) {
      await this.reserveStock.reserve(envelope as InboxEnvelope<OrderCreated>);
    } else if (envelope.messageType === OrderEvents.OrderCancelled.type) {
      await this.releaseStock.release(envelope as InboxEnvelope<OrderCancelled>);
    }
  }
}
