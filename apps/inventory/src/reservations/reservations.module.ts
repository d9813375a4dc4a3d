import { Module } from '@nestjs/common';
import { CommandsModule } from '@app/commands';
import { OutboxModule } from '@app/outbox';
import { CancelledOrdersCleanup } from './cancelled-orders/cancelled-orders.cleanup.js';
import { CancelledOrdersCleanupScheduler } from './cancelled-orders/cancelled-orders-cleanup.scheduler.js';
import { OrderEventsHandler } from './order-events.handler.js';
import { ReleaseStockService } from './release-stock/release-stock.service.js';
import { LOYALTY_COMMANDS_TABLE } from './reserve-stock/loyalty-accrual.command.js';
import { ReserveStockService } from './reserve-stock/reserve-stock.service.js';
import { StockBatchLocks } from './stock-batch-locks.js';

/** Reserves and releases stock for order events; `inventory.consumes.ts` routes `orders.order.v1` to {@link OrderEventsHandler}. */
@Module({
  imports: [OutboxModule.forFeature(), CommandsModule.forFeature({ table: LOYALTY_COMMANDS_TABLE })],
  providers: [
    OrderEventsHandler,
    StockBatchLocks,
    ReserveStockService,
    ReleaseStockService,
    CancelledOrdersCleanup,
    CancelledOrdersCleanupScheduler,
  ],
})
export class ReservationsModule {}
