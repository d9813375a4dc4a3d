import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ADMIN_SCOPE, RequireScopes } from '@libs/auth';
import { OrderFields } from '@libs/contracts';
import { jsonSchemaOf } from '@libs/envelope';
import { ApiErrors } from '@libs/http';
import { SkuPipe } from '../sku.pipe.js';
import { StockResponse, toStockResponse } from '../stock.response.js';
import { SetStockRequest } from './set-stock.request.js';
import { SetStockService } from './set-stock.service.js';

@ApiTags('stock')
@Controller('stock')
export class SetStockController {
  constructor(private readonly service: SetStockService) {}

  @Put(':sku')
  @RequireScopes(ADMIN_SCOPE)
  @ApiOperation({ summary: 'Set the available units of a SKU (creates it when new); operators only (the admin scope)' })
  @ApiParam({ name: 'sku', schema: jsonSchemaOf(OrderFields.sku, 'openapi-3.0'), example: 'SKU-APPLE' })
  @ApiOkResponse({ type: StockResponse })
  @ApiErrors({ 400: 'sku or body malformed (`fields` names each)' }, 413)
  async set(@Param('sku', SkuPipe) sku: string, @Body() request: SetStockRequest) {
    return toStockResponse(await this.service.set(sku, request.available));
  }
}
