import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TransactionContext } from '@app/database';
import { ApiErrors } from '@app/http';
import { Accrual } from '../accrual.entity.js';
import { AccrualListResponse, toAccrualResponse } from '../accrual.response.js';
import { ListAccrualsRequest } from './list-accruals.request.js';

@ApiTags('accruals')
@Controller('accruals')
export class ListAccrualsController {
  constructor(private readonly tx: TransactionContext) {}

  @Get()
  @ApiOperation({ summary: "List a customer's accruals and their total" })
  @ApiOkResponse({ type: AccrualListResponse })
  @ApiErrors({ 400: 'customerId missing or malformed' })
  async list(@Query() query: ListAccrualsRequest): Promise<AccrualListResponse> {
    const accruals = await this.tx.repository(Accrual).find({
      where: { customerId: query.customerId },
      order: { createdAt: 'ASC' },
    });
    const items = accruals.map(toAccrualResponse);
    return { customerId: query.customerId, totalPoints: items.reduce((sum, item) => sum + item.points, 0), items };
  }
}
