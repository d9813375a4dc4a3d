import { Controller, Get, HttpStatus, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@libs/auth';
import { TransactionContext } from '@libs/database';
import { ApiErrors, ProblemException, uuidParam } from '@libs/http';
import { annotateLog } from '@libs/telemetry';
import { OrdersErrorCodes } from '../../orders.error-codes.js';
import { Order } from '../order.entity.js';
import { OrderResponse, toOrderResponse } from '../order.response.js';

@ApiTags('orders')
@Controller('orders')
export class GetOrderController {
  constructor(private readonly tx: TransactionContext) {}

  @Get(':id')
  @ApiOperation({
    summary: 'Read an order and its status',
    description: "Only the customer's own orders; another's is 404, as a missing one.",
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: OrderResponse })
  @ApiErrors({ 400: 'id is not a UUID (version 7 or 4)' }, { 404: OrdersErrorCodes.NOT_FOUND })
  async get(@Param('id', uuidParam('id')) id: string, @CurrentPrincipal() principal: Principal) {
    annotateLog({ orderId: id });
    // The owner is part of the lookup: another customer's order answers exactly as a missing one,
    // so ids cannot be probed for existence.
    const order = await this.tx.repository(Order).findOne({ where: { id, customerId: principal.subject }, relations: { items: true } });
    if (!order) throw new ProblemException(HttpStatus.NOT_FOUND, OrdersErrorCodes.NOT_FOUND, `Order ${id} not found`);
    return toOrderResponse(order);
  }
}
