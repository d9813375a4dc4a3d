import { Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { CancelOrderService } from './cancel-order.service.js';

@Controller('orders')
export class CancelOrderController {
  constructor(private readonly service: CancelOrderService) {}

  @Post(':id/cancel')
  @HttpCode(200)
  cancel(@Param('id', new ParseUUIDPipe({ version: '4' })) id: string) {
    return this.service.cancel(id);
  }
}
