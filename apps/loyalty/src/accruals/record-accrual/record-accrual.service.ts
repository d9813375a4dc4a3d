import { Injectable } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import { Accrual } from '../accrual.entity.js';
import { type AccrualResponse, toAccrualResponse } from '../accrual.response.js';
import type { RecordAccrualRequest } from './record-accrual.request.js';

@Injectable()
export class RecordAccrualService {
  constructor(private readonly tx: TransactionContext) {}

  /** Joins the transaction the idempotency interceptor opened, so key and accrual commit together. */
  async record(request: RecordAccrualRequest): Promise<AccrualResponse> {
    const accruals = this.tx.requireManager('Recording an accrual').getRepository(Accrual);
    const saved = await accruals.save(accruals.create(request));
    return toAccrualResponse(saved);
  }
}
