import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@app/auth';
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
  @ApiOperation({ summary: "List the caller's own accruals (the token's subject) and their total" })
  @ApiOkResponse({ type: AccrualListResponse })
  @ApiErrors({ 400: 'a query parameter was sent (none is taken)' })
  async list(@Query() _query: ListAccrualsRequest, @CurrentPrincipal() principal: Principal): Promise<AccrualListResponse> {
    const customerId = principal.subject;
    const accruals = await this.tx.repository(Accrual).find({ where: { customerId }, order: { createdAt: 'ASC' } });
    const items = accruals.map(toAccrualResponse);
    return { customerId, totalPoints: items.reduce((sum, item) => sum + item.points, 0), items };
  }
}
