import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@libs/auth';
import { LOYALTY_ACCRUALS_WRITE_SCOPE } from '@libs/contracts';
import { ApiErrors } from '@libs/http';
import { Idempotent } from '@libs/idempotency';
import { AccrualResponse } from '../accrual.response.js';
import { annotateLog } from '@libs/telemetry';
import { RecordAccrualRequest } from './record-accrual.request.js';
import { RecordAccrualService } from './record-accrual.service.js';
import { LoyaltyFailpoints } from '../../loyalty.failpoints.js';

@ApiTags('accruals')
@Controller('accruals')
export class RecordAccrualController {
  constructor(private readonly service: RecordAccrualService) {}

  /**
   * `Idempotency-Key` is required: a partner API that pays out points must never do it twice. Only
   * a caller with the accruals scope (inventory's service client): customers never credit points.
   */
  @Post()
  @RequireScopes(LOYALTY_ACCRUALS_WRITE_SCOPE)
  @ApiOperation({
    summary: 'Credit points for an order, at most once per order (and per Idempotency-Key of a caller); needs loyalty:accruals:write',
  })
  @ApiCreatedResponse({ type: AccrualResponse, description: 'Credited (or, on a replay, the stored answer of the first request)' })
  @ApiErrors(413, {
    422: 'LOYALTY.ACCRUAL_MISMATCH: the order is already credited with another customer or other points',
  })
  @HttpCode(201)
  @Idempotent({
    required: true,
    status: 201,
    afterCommitFailpoint: LoyaltyFailpoints.afterCommitBeforeResponse,
    failpointScope: (accrual: AccrualResponse) => accrual.orderId,
  })
  record(@Body() request: RecordAccrualRequest) {
    annotateLog({ orderId: request.orderId });
    return this.service.record(request);
  }
}
