import { Body, Controller, Param, Put } from '@nestjs/common';
import { SkuPipe } from '../sku.pipe.js';
import { toStockResponse } from '../stock.response.js';
import { SetStockRequest } from './set-stock.request.js';
import { SetStockService } from './set-stock.service.js';

@Controller('stock')
export class SetStockController {
  constructor(private readonly service: SetStockService) {}

  @Put(':sku')
  async set(@Param('sku', SkuPipe) sku: string, @Body() request: SetStockRequest) {
    return toStockResponse(await this.service.set(sku, request.available));
  }
}
