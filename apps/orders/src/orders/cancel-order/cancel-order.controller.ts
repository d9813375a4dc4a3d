import { Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { annotateLog } from '@app/telemetry';
import { CancelOrderService } from './cancel-order.service.js';

@Controller('orders')
export class CancelOrderController {
  constructor(private readonly service: CancelOrderService) {}

  @Post(':id/cancel')
  @HttpCode(200)
  cancel(@Param('id', new ParseUUIDPipe({ version: '4' })) id: string) {
    annotateLog({ orderId: id });
    return this.service.cancel(id);
  }
}
