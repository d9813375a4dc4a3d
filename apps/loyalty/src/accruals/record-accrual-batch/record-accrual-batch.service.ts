import { HttpStatus, Injectable } from '@nestjs/common';
import { TransactionContext } from '@libs/database';
import { failpoint } from '@libs/failpoints';
import { problemBody, problemOfException, RequestErrorCodes } from '@libs/http';
import { requestFingerprint } from '@libs/idempotency';
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
 * Credits the batch, reads back what the orders were already credited with, and stores each
 * accrual's key with its answer as `POST /accruals` would: ONE statement, one implicit transaction.
 *
 * - `inserted`: the new accruals. Rows go in order_id order, so two batches that overlap (two
 *   replicas after a lease expired) wait for each other on the unique index instead of deadlocking.
 * - `credited`: those plus the accruals that existed before; the plain SELECT reads the snapshot
 *   taken before the insert, so it returns exactly the conflicts.
 * - `stored`: the key of every accrual answered 201 (not of a mismatch, which `POST /accruals`
 *   would refuse), with the fingerprint of the single request and the body it would have answered,
 *   spelled as `JSON.stringify` spells it (the column is json: a replay returns it byte for byte).
 *   A key already stored is left as it is.
 */
const CREDIT_BATCH = `
  WITH batch AS (
    SELECT customer_id, order_text, order_text::uuid AS order_id, points, key, fingerprint
    FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[]) AS b(customer_id, order_text, points, key, fingerprint)),
  inserted AS (
    INSERT INTO accruals (customer_id, order_id, points)
    SELECT customer_id, order_id, points FROM batch ORDER BY order_id
    ON CONFLICT ON CONSTRAINT accruals_order_id_key DO NOTHING
    RETURNING id, customer_id, order_id, points, created_at),
  credited AS (
    SELECT id, customer_id, order_id, points, created_at, true AS inserted FROM inserted
    UNION ALL
    SELECT id, customer_id, order_id, points, created_at, false FROM accruals WHERE order_id IN (SELECT order_id FROM batch)),
  stored AS (
    INSERT INTO idempotency_keys (principal, key, request_fingerprint, response_status, response_body)
    SELECT $6, b.key, b.fingerprint, 201, ('{"id":' || to_json(c.id)::text || ',"customerId":' || to_json(b.customer_id)::text
      || ',"orderId":' || to_json(b.order_text)::text || ',"points":' || b.points
      || ',"createdAt":' || to_json(to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text || '}')::json
    FROM batch b JOIN credited c ON c.order_id = b.order_id AND c.customer_id = b.customer_id AND c.points = b.points
    ORDER BY b.key
    ON CONFLICT (principal, key) DO NOTHING)
  SELECT id, customer_id, order_id::text, points, created_at, inserted FROM credited`;

@Injectable()
export class RecordAccrualBatchService {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * Each accrual gets the answer `POST /accruals` would give it under its id as Idempotency-Key,
   * and the same guarantee: at most one accrual per order, whatever request or caller asks
   * (`accruals_order_id_key`), so a batch sent again after a lost answer credits nothing twice.
   * That constraint, not a key lookup, is what makes a batch safe to repeat: a batch's members
   * change from one attempt to the next, so no key could name it. The keys are still stored, so a
   * later single `POST /accruals` under one of them is replayed.
   */
  async record(principal: string, commands: readonly AccrualBatchCommand[]): Promise<AccrualBatchResult[]> {
    const bodies = commands.map(({ body }) => ({ customerId: body.customerId, orderId: body.orderId, points: body.points }));
    const rows: AccrualRow[] = await this.tx.manager.query(CREDIT_BATCH, [
      bodies.map((body) => body.customerId),
      bodies.map((body) => body.orderId),
      bodies.map((body) => body.points),
      commands.map((command) => command.id),
      bodies.map((body) => requestFingerprint('POST', '/accruals', body)),
      principal,
    ]);
    // Rows name orders as Postgres spells a uuid (lower case); a request may not.
    const byOrder = new Map(rows.map((row) => [row.order_id, row]));
    const results: AccrualBatchResult[] = [];
    for (const [index, { id }] of commands.entries()) {
      const body = bodies[index];
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
