import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@libs/auth';
import { ApiErrors, uuidParam } from '@libs/http';
import { annotateLog } from '@libs/telemetry';
import { OrdersErrorCodes } from '../../orders.error-codes.js';
import { OrderResponse } from '../order.response.js';
import { CancelOrderService } from './cancel-order.service.js';

@ApiTags('orders')
@Controller('orders')
export class CancelOrderController {
  constructor(private readonly service: CancelOrderService) {}

  @Post(':id/cancel')
  @ApiOperation({
    summary: 'Cancel an order',
    description: "Only the customer's own orders (another's is 404). Safe to retry: cancelling a cancelled order returns it unchanged.",
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: OrderResponse, description: 'The order, now CANCELLED' })
  @ApiErrors(
    { 400: 'id is not a UUID (version 7 or 4)' },
    { 404: OrdersErrorCodes.NOT_FOUND },
    { 409: `${OrdersErrorCodes.NOT_CANCELLABLE}: the order is REJECTED` },
  )
  @HttpCode(200)
  cancel(@Param('id', uuidParam('id')) id: string, @CurrentPrincipal() principal: Principal) {
    annotateLog({ orderId: id });
    return this.service.cancel(id, principal.subject);
  }
}
