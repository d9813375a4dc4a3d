import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@libs/idempotency';
import { RecordReversalController } from './record-reversal/record-reversal.controller.js';
import { RecordReversalService } from './record-reversal/record-reversal.service.js';

@Module({
  imports: [IdempotencyModule],
  controllers: [RecordReversalController],
  providers: [RecordReversalService],
})
export class ReversalsModule {}
