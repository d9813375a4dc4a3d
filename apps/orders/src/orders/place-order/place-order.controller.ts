import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Idempotent } from '@app/idempotency';
import { PlaceOrderRequest } from './place-order.request.js';
import { PlaceOrderService } from './place-order.service.js';

@Controller('orders')
export class PlaceOrderController {
  constructor(private readonly service: PlaceOrderService) {}

  /** With `Idempotency-Key`, a retry after a lost response returns the same order. */
  @Post()
  @HttpCode(201)
  @Idempotent({ status: 201, afterCommitFailpoint: 'orders.after-commit-before-response' })
  place(@Body() request: PlaceOrderRequest) {
    return this.service.place(request);
  }
}
