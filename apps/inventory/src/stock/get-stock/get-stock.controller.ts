import { Controller, Get, HttpStatus, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OrderFields } from '@libs/contracts';
import { jsonSchemaOf } from '@libs/envelope';
import { TransactionContext } from '@libs/database';
import { ApiErrors, ProblemException } from '@libs/http';
import { InventoryErrorCodes } from '../../inventory.error-codes.js';
import { SkuPipe } from '../sku.pipe.js';
import { StockItem } from '../stock-item.entity.js';
import { StockResponse, toStockResponse } from '../stock.response.js';

@ApiTags('stock')
@Controller('stock')
export class GetStockController {
  constructor(private readonly tx: TransactionContext) {}

  @Get(':sku')
  @ApiOperation({ summary: 'Read the stock of a SKU' })
  @ApiParam({ name: 'sku', schema: jsonSchemaOf(OrderFields.sku, 'openapi-3.0'), example: 'SKU-APPLE' })
  @ApiOkResponse({ type: StockResponse })
  @ApiErrors({ 400: 'sku is malformed' }, { 404: InventoryErrorCodes.UNKNOWN_SKU })
  async get(@Param('sku', SkuPipe) sku: string) {
    const item = await this.tx.repository(StockItem).findOneBy({ sku });
    if (!item) throw new ProblemException(HttpStatus.NOT_FOUND, InventoryErrorCodes.UNKNOWN_SKU, `SKU ${sku} not found`);
    return toStockResponse(item);
  }
}
