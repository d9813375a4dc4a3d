import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@libs/auth';
import { TransactionContext } from '@libs/database';
import { ApiErrors } from '@libs/http';
import { BalanceResponse } from './balance.response.js';
import { GetBalanceRequest } from './get-balance.request.js';

@ApiTags('balances')
@Controller('balance')
export class GetBalanceController {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * Both sums in one statement, so they come from one snapshot: a reversal committed between two
   * reads could otherwise show a balance below what was ever true.
   */
  @Get()
  @ApiOperation({ summary: "The caller's own points (the token's subject): accrued, reversed and the balance (accrued - reversed)" })
  @ApiOkResponse({ type: BalanceResponse })
  @ApiErrors({ 400: 'a query parameter was sent (none is taken)' })
  async balance(@Query() _query: GetBalanceRequest, @CurrentPrincipal() principal: Principal): Promise<BalanceResponse> {
    const customerId = principal.subject;
    const [row]: { accrued: string; reversed: string }[] = await this.tx.manager.query(
      `SELECT (SELECT coalesce(sum(points), 0) FROM accruals WHERE customer_id = $1) AS accrued,
              (SELECT coalesce(sum(points), 0) FROM reversals WHERE customer_id = $1) AS reversed`,
      [customerId],
    );
    const [accruedPoints, reversedPoints] = [Number(row.accrued), Number(row.reversed)];
    return { customerId, accruedPoints, reversedPoints, balancePoints: accruedPoints - reversedPoints };
  }
}
