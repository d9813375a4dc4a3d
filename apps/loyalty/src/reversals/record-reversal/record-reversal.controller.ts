import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@libs/auth';
import { LOYALTY_ACCRUALS_WRITE_SCOPE } from '@libs/contracts';
import { ApiErrors } from '@libs/http';
import { Idempotent } from '@libs/idempotency';
import { annotateLog } from '@libs/telemetry';
import { LoyaltyErrorCodes } from '../../loyalty.error-codes.js';
import { LoyaltyFailpoints } from '../../loyalty.failpoints.js';
import { ReversalResponse } from '../reversal.response.js';
import { RecordReversalRequest } from './record-reversal.request.js';
import { RecordReversalService } from './record-reversal.service.js';

@ApiTags('reversals')
@Controller('reversals')
export class RecordReversalController {
  constructor(private readonly service: RecordReversalService) {}

  /**
   * `Idempotency-Key` is required, as for accruals: inventory sends `loyalty-reversal:<orderId>`.
   * The same scope as crediting: only inventory's service client moves points, never a customer.
   */
  @Post()
  @RequireScopes(LOYALTY_ACCRUALS_WRITE_SCOPE)
  @ApiOperation({
    summary: "Take back the points of an order's accrual, at most once per order; needs loyalty:accruals:write",
    description:
      'The compensation of a cancelled order. One reversal per order (a repeat, under any key, answers the existing one). ' +
      'An order without an accrual yet is refused with 409 and nothing is recorded: the caller retries.',
  })
  @ApiCreatedResponse({ type: ReversalResponse, description: 'Reversed (or the existing reversal of the order)' })
  @ApiErrors(
    400,
    413,
    { 409: LoyaltyErrorCodes.ACCRUAL_NOT_FOUND },
    { 422: `${LoyaltyErrorCodes.REVERSAL_MISMATCH}: the customer or points differ from the order's accrual` },
  )
  @HttpCode(201)
  @Idempotent({
    required: true,
    status: 201,
    afterCommitFailpoint: LoyaltyFailpoints.afterCommitBeforeResponse,
    // Scoped apart from the order's accrual, which passes the same window: a test arms one of them.
    failpointScope: (reversal: ReversalResponse) => `reversal-of-${reversal.orderId}`,
  })
  reverse(@Body() request: RecordReversalRequest) {
    annotateLog({ orderId: request.orderId });
    return this.service.reverse(request);
  }
}
