import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@app/idempotency';
import { ListAccrualsController } from './list-accruals/list-accruals.controller.js';
import { RecordAccrualController } from './record-accrual/record-accrual.controller.js';
import { RecordAccrualService } from './record-accrual/record-accrual.service.js';

@Module({
  imports: [IdempotencyModule],
  controllers: [RecordAccrualController, ListAccrualsController],
  providers: [RecordAccrualService],
})
export class AccrualsModule {}
