import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Idempotent } from '@app/idempotency';
import { annotateLog } from '@app/telemetry';
import { RecordAccrualRequest } from './record-accrual.request.js';
import { RecordAccrualService } from './record-accrual.service.js';

@Controller('accruals')
export class RecordAccrualController {
  constructor(private readonly service: RecordAccrualService) {}

  /** `Idempotency-Key` is required: a partner API that pays out points must never do it twice. */
  @Post()
  @HttpCode(201)
  @Idempotent({ required: true, status: 201, afterCommitFailpoint: 'loyalty.after-commit-before-response' })
  record(@Body() request: RecordAccrualRequest) {
    annotateLog({ orderId: request.orderId });
    return this.service.record(request);
  }
}
