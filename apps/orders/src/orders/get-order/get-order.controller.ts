import { Controller, Get, NotFoundException, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { TransactionContext } from '@app/database';
import { ApiErrors } from '@app/http';
import { annotateLog } from '@app/telemetry';
import { Order } from '../order.entity.js';
import { OrderResponse, toOrderResponse } from '../order.response.js';

@ApiTags('orders')
@Controller('orders')
export class GetOrderController {
  constructor(private readonly tx: TransactionContext) {}

  @Get(':id')
  @ApiOperation({ summary: 'Read an order and its status' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: OrderResponse })
  @ApiErrors({ 400: 'id is not a UUID v4' }, { 404: 'ORDERS.NOT_FOUND' })
  async get(@Param('id', new ParseUUIDPipe({ version: '4' })) id: string) {
    annotateLog({ orderId: id });
    const order = await this.tx.repository(Order).findOne({ where: { id }, relations: { items: true } });
    if (!order) throw new NotFoundException({ statusCode: 404, code: 'ORDERS.NOT_FOUND', message: `Order ${id} not found` });
    return toOrderResponse(order);
  }
}
