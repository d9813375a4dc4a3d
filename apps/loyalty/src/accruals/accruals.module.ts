import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@libs/idempotency';
import { ListAccrualsController } from './list-accruals/list-accruals.controller.js';
import { RecordAccrualBatchController } from './record-accrual-batch/record-accrual-batch.controller.js';
import { RecordAccrualBatchService } from './record-accrual-batch/record-accrual-batch.service.js';
import { RecordAccrualController } from './record-accrual/record-accrual.controller.js';
import { RecordAccrualService } from './record-accrual/record-accrual.service.js';

@Module({
  imports: [IdempotencyModule],
  controllers: [RecordAccrualController, RecordAccrualBatchController, ListAccrualsController],
  providers: [RecordAccrualService, RecordAccrualBatchService],
})
export class AccrualsModule {}
