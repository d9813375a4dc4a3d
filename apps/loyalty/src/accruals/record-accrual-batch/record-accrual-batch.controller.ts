import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, RequireScopes } from '@libs/auth';
import { AccrualLimits, LOYALTY_ACCRUALS_WRITE_SCOPE } from '@libs/contracts';
import { ApiErrors, ProblemDetails } from '@libs/http';
import { AccrualResponse } from '../accrual.response.js';
import { RecordAccrualBatchRequest } from './record-accrual-batch.request.js';
import { AccrualBatchResponse } from './record-accrual-batch.response.js';
import { RecordAccrualBatchService } from './record-accrual-batch.service.js';

@ApiTags('accruals')
@ApiExtraModels(AccrualResponse, ProblemDetails)
@Controller('accruals/batch')
export class RecordAccrualBatchController {
  constructor(private readonly service: RecordAccrualBatchService) {}

  /**
   * What inventory's dispatcher sends when it has claimed more than one accrual: one request and
   * one statement for all of them, instead of one each. The same scope as `POST /accruals`.
   */
  @Post()
  @RequireScopes(LOYALTY_ACCRUALS_WRITE_SCOPE)
  @ApiOperation({
    summary: `Credit points for up to ${AccrualLimits.batchMax} orders at once, at most once per order; needs loyalty:accruals:write`,
    description:
      'Each accrual is answered as POST /accruals would answer it under its id as Idempotency-Key, in the order sent, and its key is stored the same way. ' +
      'No Idempotency-Key header: an order is credited at most once whatever asks, so the batch is safe to send again after a lost answer ' +
      '(a credited order answers its existing accrual, marked replayed).',
  })
  @ApiOkResponse({ type: AccrualBatchResponse, description: 'One result per accrual; a batch is never partly refused as a whole' })
  @ApiErrors(400, 413)
  @HttpCode(200)
  async record(@Body() request: RecordAccrualBatchRequest, @CurrentPrincipal() principal: Principal): Promise<AccrualBatchResponse> {
    return { results: await this.service.record(principal.subject, request.commands) };
  }
}
