import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { OrderResponse } from '../order.response.js';
import { PlaceOrderRequest } from './place-order.request.js';
import { PlaceOrderService } from './place-order.service.js';

@ApiTags('orders')
@Controller('orders')
export class PlaceOrderController {
  constructor(private readonly service: PlaceOrderService) {}

  /** With `Idempotency-Key`, a retry after a lost response returns the same order. */
  @Post()
  @ApiOperation({
    summary: 'Place an order',
    description: 'Answers at once with status PENDING; the order and its OrderCreated event commit together.',
  })
  @ApiCreatedResponse({ type: OrderResponse, description: 'Created (or, on a replay, the order the first request created)' })
  @ApiErrors(413)
  @HttpCode(201)
  @Idempotent({
    status: 201,
    afterCommitFailpoint: 'orders.after-commit-before-response',
    failpointScope: (order: OrderResponse) => order.id,
  })
  place(@Body() request: PlaceOrderRequest) {
    return this.service.place(request);
  }
}
