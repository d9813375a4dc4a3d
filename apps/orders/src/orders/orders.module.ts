import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@libs/idempotency';
import { OutboxModule } from '@libs/outbox';
import { CancelOrderController } from './cancel-order/cancel-order.controller.js';
import { CancelOrderService } from './cancel-order/cancel-order.service.js';
import { GetOrderController } from './get-order/get-order.controller.js';
import { PlaceOrderController } from './place-order/place-order.controller.js';
import { PlaceOrderService } from './place-order/place-order.service.js';

@Module({
  imports: [IdempotencyModule, OutboxModule.forFeature()],
  controllers: [PlaceOrderController, GetOrderController, CancelOrderController],
  providers: [PlaceOrderService, CancelOrderService],
})
export class OrdersModule {}
