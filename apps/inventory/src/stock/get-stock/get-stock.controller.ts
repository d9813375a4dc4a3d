import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import { SkuPipe } from '../sku.pipe.js';
import { StockItem } from '../stock-item.entity.js';
import { toStockResponse } from '../stock.response.js';

@Controller('stock')
export class GetStockController {
  constructor(private readonly tx: TransactionContext) {}

  @Get(':sku')
  async get(@Param('sku', SkuPipe) sku: string) {
    const item = await this.tx.repository(StockItem).findOneBy({ sku });
    if (!item) throw new NotFoundException({ statusCode: 404, code: 'INVENTORY.UNKNOWN_SKU', message: `SKU ${sku} not found` });
    return toStockResponse(item);
  }
}
