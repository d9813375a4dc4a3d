import { Module } from '@nestjs/common';
import { CommandsModule } from '@libs/commands';
import { retentionJob } from '@libs/database';
import { OutboxModule } from '@libs/outbox';
import { cancelledOrdersRetention } from './cancelled-orders/cancelled-orders.cleanup.js';
import { OrderEventsHandler } from './order-events.handler.js';
import { ReleaseStockService } from './release-stock/release-stock.service.js';
import { LOYALTY_COMMANDS_TABLE } from './reserve-stock/loyalty-accrual.command.js';
import { ReserveStockService } from './reserve-stock/reserve-stock.service.js';
import { StockBatchLocks } from './stock-batch-locks.js';
import { INVENTORY_CONFIG } from '../inventory-config.token.js';

/** Reserves and releases stock for order events; `inventory.consumes.ts` routes `orders.order.v1` to {@link OrderEventsHandler}. */
@Module({
  imports: [OutboxModule.forFeature(), CommandsModule.forFeature({ table: LOYALTY_COMMANDS_TABLE })],
  providers: [
    OrderEventsHandler,
    StockBatchLocks,
    ReserveStockService,
    ReleaseStockService,
    retentionJob({ inject: [INVENTORY_CONFIG], policy: cancelledOrdersRetention }),
  ],
})
export class ReservationsModule {}
