import { Controller, Get, NotFoundException, Param, ParseUUIDPipe } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import { annotateLog } from '@app/telemetry';
import { Order } from '../order.entity.js';
import { toOrderResponse } from '../order.response.js';

@Controller('orders')
export class GetOrderController {
  constructor(private readonly tx: TransactionContext) {}

  @Get(':id')
  async get(@Param('id', new ParseUUIDPipe({ version: '4' })) id: string) {
    annotateLog({ orderId: id });
    const order = await this.tx.repository(Order).findOne({ where: { id }, relations: { items: true } });
    if (!order) throw new NotFoundException({ statusCode: 404, code: 'ORDERS.NOT_FOUND', message: `Order ${id} not found` });
    return toOrderResponse(order);
  }
}
