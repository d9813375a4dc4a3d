import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@libs/auth';
import { ApiErrors, ShedWhenBacklogged } from '@libs/http';
import { Idempotent } from '@libs/idempotency';
import { OrderResponse } from '../order.response.js';
import { PlaceOrderRequest } from './place-order.request.js';
import { PlaceOrderService } from './place-order.service.js';
import { CustomerRateGuard } from './customer-rate.guard.js';
import { OrdersFailpoints } from '../../orders.failpoints.js';

@ApiTags('orders')
@Controller('orders')
export class PlaceOrderController {
  constructor(private readonly service: PlaceOrderService) {}

  /** With `Idempotency-Key`, a retry after a lost response returns the same order. */
  @Post()
  @ApiOperation({
    summary: 'Place an order',
    description:
      "For the token's subject as customer. Answers at once with status PENDING; the order and its OrderCreated event commit together. " +
      'Each line is priced from the price list: a price or total in the request is refused (400 naming the field), ' +
      'a SKU not on the list is 422 ORDERS.UNKNOWN_SKU naming the line (`items[0].sku`).',
  })
  @ApiCreatedResponse({ type: OrderResponse, description: 'Created (or, on a replay, the order the first request created)' })
  @ApiErrors(400, { 403: "AUTH.FORBIDDEN: the token's subject cannot be a customer id (too long, or not storable)" }, 413, {
    422: 'ORDERS.UNKNOWN_SKU (`fields` names each line, `items[0].sku`) or ORDERS.TOTAL_TOO_LARGE',
    429: 'ORDERS.RATE_LIMITED: more orders from this customer than ORDERS_CUSTOMER_RATE_PER_S, or IDEMPOTENCY.QUOTA_EXCEEDED; nothing was done, retry after `Retry-After` seconds',
  })
  @UseGuards(CustomerRateGuard)
  @ShedWhenBacklogged()
  @HttpCode(201)
  @Idempotent({
    status: 201,
    afterCommitFailpoint: OrdersFailpoints.afterCommitBeforeResponse,
    failpointScope: (order: OrderResponse) => order.id,
  })
  place(@Body() request: PlaceOrderRequest, @CurrentPrincipal() principal: Principal) {
    return this.service.place(principal, request);
  }
}
