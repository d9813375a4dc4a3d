import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionContext } from '@libs/database';
import { CodedError } from '@libs/envelope';
import { type InboxEnvelope, inMessageScopeOf } from '@libs/inbox';
import { annotateLog } from '@libs/telemetry';
import { type OrdersErrorCode, OrdersErrorCodes } from '../orders.error-codes.js';
import { OrderStatus } from '../orders/order-status.js';

/** The final state an answer moves a PENDING order to. */
export interface ReservationResultChange {
  status: OrderStatus;
  rejectionCode: string | null;
  rejectionReason: string | null;
}

/** An answer about an order: what every message of `inventory.reservation.v1` carries. */
type Answer = InboxEnvelope<{ orderId: string }>;

/** Postgres returns uuids in lower case; a producer may send them in upper case. The key to compare order ids by. */
const orderKey = (answer: Answer): string => answer.payload.orderId.toLowerCase();

/**
 * Moves orders from PENDING to RESERVED or REJECTED when inventory answers. A customer's cancel
 * wins over a late answer: a CANCELLED order stays CANCELLED (inventory releases the stock when it
 * sees OrderCancelled, which on its partition always follows OrderCreated).
 *
 * Set-based: a run of answers costs one UPDATE for all of them, plus one SELECT only when some
 * order was not moved, whatever the run's length. The outcome is the one a message at a time gives.
 */
@Injectable()
export class ApplyReservationResultService {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * Applies to the order of each of `answers` (a run of one type, in offset order) the change
   * `changeOf` names for it; none (`undefined`) for answers that change nothing.
   */
  async apply<P extends { orderId: string }>(
    answers: readonly InboxEnvelope<P>[],
    changeOf: ((answer: InboxEnvelope<P>) => ReservationResultChange) | undefined,
  ): Promise<void> {
    const manager = this.tx.requireManager('Applying reservation results');
    // Each message's log line names its order.
    for (const answer of answers) inMessageScopeOf(answer, () => annotateLog({ orderId: answer.payload.orderId }));
    const moved = changeOf ? await movePending(manager, firstPerOrder(answers), changeOf) : new Set<string>();
    // A moved order exists; only the others need looking up.
    const unmoved = answers.filter((answer) => !moved.has(orderKey(answer)));
    if (unmoved.length === 0) return;
    const existing = await existingOrders(manager, [...new Set(unmoved.map(orderKey))]);
    const unknown = unmoved.find((answer) => !existing.has(orderKey(answer)));
    // Thrown, so the inbox retries and then dead-letters it: an answer for an unknown order is a bug
    // to look at. The run rolls back and is replayed one message at a time, so its other answers
    // are still applied and only this one is dead-lettered.
    if (unknown) {
      throw new CodedError<OrdersErrorCode>(
        OrdersErrorCodes.NOT_FOUND,
        `order ${unknown.payload.orderId} of ${unknown.messageType} ${unknown.messageId}`,
      );
    }
  }
}

/**
 * The first answer of each order, in offset order. Only the first can move it (a later one finds it
 * no longer PENDING), and an UPDATE joined to two rows for one order would apply either of them.
 */
function firstPerOrder<A extends Answer>(answers: readonly A[]): A[] {
  const first = new Map<string, A>();
  for (const answer of answers) if (!first.has(orderKey(answer))) first.set(orderKey(answer), answer);
  return [...first.values()];
}

/**
 * One conditional statement instead of read, lock and save: the row locks of the UPDATE are the
 * same, and "only from PENDING" is decided by the database (a cancel wins). clock_timestamp(), not
 * now(): in a batch transaction now() is the batch's start, and updated_at is when the order
 * reached its final state (what the benchmark's end-to-end latency reads). Returns the keys of the
 * orders it moved.
 */
async function movePending<A extends Answer>(
  manager: EntityManager,
  answers: readonly A[],
  changeOf: (answer: A) => ReservationResultChange,
): Promise<Set<string>> {
  const changes = answers.map(changeOf);
  // TypeORM answers an UPDATE with [returned rows, affected row count].
  const [moved]: [{ id: string }[], number] = await manager.query(
    `UPDATE orders SET status = answer.status, rejection_code = answer.rejection_code,
       rejection_reason = answer.rejection_reason, updated_at = clock_timestamp()
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS answer(order_id, status, rejection_code, rejection_reason)
     WHERE orders.id = answer.order_id AND orders.status = $5
     RETURNING orders.id`,
    [
      answers.map((answer) => answer.payload.orderId),
      changes.map((change) => change.status),
      changes.map((change) => change.rejectionCode),
      changes.map((change) => change.rejectionReason),
      OrderStatus.Pending,
    ],
  );
  return new Set(moved.map((row) => row.id));
}

/** The keys of those of `orderIds` that orders has. */
async function existingOrders(manager: EntityManager, orderIds: readonly string[]): Promise<Set<string>> {
  const rows: { id: string }[] = await manager.query('SELECT id FROM orders WHERE id = ANY($1::uuid[])', [orderIds]);
  return new Set(rows.map((row) => row.id));
}
