import { type DynamicModule, Module } from '@nestjs/common';
import { IdempotencyModule } from '@libs/idempotency';
import { OutboxModule } from '@libs/outbox';
import { CancelOrderController } from './cancel-order/cancel-order.controller.js';
import { CancelOrderService } from './cancel-order/cancel-order.service.js';
import { GetOrderController } from './get-order/get-order.controller.js';
import { PlaceOrderController } from './place-order/place-order.controller.js';
import { PlaceOrderService } from './place-order/place-order.service.js';
import { CUSTOMER_RATE, type CustomerRate, CustomerRateGuard } from './place-order/customer-rate.guard.js';

@Module({
  imports: [IdempotencyModule, OutboxModule.forFeature()],
  controllers: [PlaceOrderController, GetOrderController, CancelOrderController],
  providers: [PlaceOrderService, CancelOrderService],
})
export class OrdersModule {
  /** With the fair share of `POST /orders` per customer ({@link CustomerRateGuard}). */
  static forRoot(rate: CustomerRate): DynamicModule {
    return { module: OrdersModule, providers: [{ provide: CUSTOMER_RATE, useValue: rate }, CustomerRateGuard] };
  }
}
