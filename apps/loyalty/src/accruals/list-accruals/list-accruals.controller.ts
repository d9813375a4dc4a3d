import { Controller, Get, Query } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import { Accrual } from '../accrual.entity.js';
import { toAccrualResponse } from '../accrual.response.js';
import { ListAccrualsRequest } from './list-accruals.request.js';

@Controller('accruals')
export class ListAccrualsController {
  constructor(private readonly tx: TransactionContext) {}

  @Get()
  async list(@Query() query: ListAccrualsRequest) {
    const accruals = await this.tx.repository(Accrual).find({
      where: { customerId: query.customerId },
      order: { createdAt: 'ASC' },
    });
    const items = accruals.map(toAccrualResponse);
    return { customerId: query.customerId, totalPoints: items.reduce((sum, item) => sum + item.points, 0), items };
  }
}
