import { Module } from '@nestjs/common';
import { CancelledOrdersCleanup } from './cancelled-orders/cancelled-orders.cleanup.js';
import { CancelledOrdersCleanupScheduler } from './cancelled-orders/cancelled-orders-cleanup.scheduler.js';
import { OrderEventsController } from './order-events.controller.js';
import { ReleaseStockService } from './release-stock/release-stock.service.js';
import { ReserveStockService } from './reserve-stock/reserve-stock.service.js';
import { StockBatchLocks } from './stock-batch-locks.js';

@Module({ controllers: [OrderEventsController], providers: [ReserveStockService, ReleaseStockService, StockBatchLocks, CancelledOrdersCleanup, CancelledOrdersCleanupScheduler] })
export class ReservationsModule {}
