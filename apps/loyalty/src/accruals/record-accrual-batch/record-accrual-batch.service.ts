import { HttpStatus, Injectable } from '@nestjs/common';
import { TransactionContext } from '@app/database';
import { failpoint } from '@app/failpoints';
import { problemBody, problemOfException, RequestErrorCodes } from '@app/http';
import { LoyaltyFailpoints } from '../../loyalty.failpoints.js';
import { accrualMismatch } from '../accrual-mismatch.js';
import type { AccrualResponse } from '../accrual.response.js';
import type { AccrualBatchResult } from './record-accrual-batch.response.js';
import type { AccrualBatchCommand } from './record-accrual-batch.request.js';

interface AccrualRow {
  id: string;
  customer_id: string;
  order_id: string;
  points: number;
  created_at: Date;
  inserted: boolean;
}

/**
 * Credits the batch and reads back what the orders were already credited with, in ONE statement
 * and one implicit transaction. The outer SELECT reads the snapshot taken before the insert, so
 * it returns exactly the accruals that existed before (the conflicts); the RETURNING rows are the
 * new ones. Rows are inserted in order_id order, so two batches that overlap (two replicas after
 * a lease expired) wait for each other on the unique index instead of deadlocking.
 */
const CREDIT_BATCH = `
  WITH batch AS (
    SELECT * FROM unnest($1::text[], $2::uuid[], $3::int[]) AS b(customer_id, order_id, points)),
  inserted AS (
    INSERT INTO accruals (customer_id, order_id, points)
    SELECT customer_id, order_id, points FROM batch ORDER BY order_id
    ON CONFLICT ON CONSTRAINT accruals_order_id_key DO NOTHING
    RETURNING id, customer_id, order_id, points, created_at)
  SELECT id, customer_id, order_id::text, points, created_at, true AS inserted FROM inserted
  UNION ALL
  SELECT id, customer_id, order_id::text, points, created_at, false FROM accruals WHERE order_id IN (SELECT order_id FROM batch)`;

@Injectable()
export class RecordAccrualBatchService {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * Each accrual gets the answer `POST /accruals` would give it, and the same guarantee: at most
   * one accrual per order, whatever request or caller asks (`accruals_order_id_key`), so a batch
   * sent again after a lost answer credits nothing twice. That constraint, not a stored
   * Idempotency-Key, is what makes a batch safe to repeat: a batch's members change from one
   * attempt to the next, so no key could name it.
   */
  async record(commands: readonly AccrualBatchCommand[]): Promise<AccrualBatchResult[]> {
    const bodies = commands.map((command) => command.body);
    const rows: AccrualRow[] = await this.tx.manager.query(CREDIT_BATCH, [
      bodies.map((body) => body.customerId),
      bodies.map((body) => body.orderId),
      bodies.map((body) => body.points),
    ]);
    const byOrder = new Map(rows.map((row) => [row.order_id, row]));
    const results: AccrualBatchResult[] = [];
    for (const { id, body } of commands) {
      const row = byOrder.get(body.orderId.toLowerCase());
      // The same window as POST /accruals: committed, not yet answered (scoped by the order, as there).
      if (row) await failpoint(LoyaltyFailpoints.afterCommitBeforeResponse, `${body.orderId} ${row.inserted ? 'executed' : 'replayed'}`);
      results.push({ id, ...this.answer(body, row) });
    }
    return results;
  }

  private answer(body: AccrualBatchCommand['body'], row: AccrualRow | undefined): Omit<AccrualBatchResult, 'id'> {
    if (!row) {
      // Inserted by a concurrent request that committed after this statement's snapshot.
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: problemBody({
          status: HttpStatus.SERVICE_UNAVAILABLE,
          code: RequestErrorCodes.UNAVAILABLE,
          detail: `Order ${body.orderId} was credited by a concurrent request; send this accrual again to read its answer`,
        }),
      };
    }
    const mismatch = accrualMismatch(body.orderId, { customerId: row.customer_id, points: row.points }, body);
    if (mismatch) return { status: mismatch.getStatus(), body: problemBody(problemOfException(mismatch)) };
    const accrual: AccrualResponse = {
      id: row.id,
      customerId: body.customerId,
      orderId: body.orderId,
      points: body.points,
      createdAt: row.created_at.toISOString(),
    };
    return { status: HttpStatus.CREATED, ...(row.inserted ? {} : { replayed: true as const }), body: accrual };
  }
}
