import { Injectable, Logger } from '@nestjs/common';
import { CommandWriter } from '@libs/commands';
import { type OrderCancelled, ReservationEvents, type ReversalRequest, type StockReleased } from '@libs/contracts';
import { TransactionContext } from '@libs/database';
import type { InboxEnvelope } from '@libs/inbox';
import { OutboxWriter } from '@libs/outbox';
import type { EntityManager } from 'typeorm';
import { annotateLog } from '@libs/telemetry';
import { lockOrder } from '../order-lock.js';
import { Reservation } from '../reservation.entity.js';
import { reservationEventBase } from '../reservation-event-base.js';
import { accrualOperationId, LOYALTY_COMMANDS_TABLE } from '../reserve-stock/loyalty-accrual.command.js';
import { loyaltyReversalCommand } from './loyalty-reversal.command.js';

/**
 * Returns a cancelled order's reserved stock. An order that was rejected holds nothing: there is
 * nothing to release and nothing to announce. An order with no reservation at all is remembered as
 * cancelled, so that an `OrderCreated` arriving after this (a replayed dead letter, a redelivery
 * after a rebalance) reserves nothing for it. Releasing also reverses the points the reservation's
 * accrual credited: a `loyalty-reversal:<orderId>` command in this same transaction (else a cancelled order kept its points), so
 * the compensation exists exactly when the release committed, and is sent like the accrual. A
 * cancel applies only to its own customer's order: one that names another customer changes nothing.
 */
@Injectable()
export class ReleaseStockService {
  private readonly logger = new Logger(ReleaseStockService.name);

  constructor(
    private readonly tx: TransactionContext,
    private readonly outbox: OutboxWriter,
    private readonly commands: CommandWriter,
  ) {}

  async release(envelope: InboxEnvelope<OrderCancelled>): Promise<void> {
    const manager = this.tx.requireManager('Releasing stock');
    const orderId = envelope.payload.orderId;
    annotateLog({ orderId });
    await lockOrder(manager, orderId);
    const reservations = manager.getRepository(Reservation);
    const reservation = await reservations.findOne({ where: { orderId }, lock: { mode: 'pessimistic_write' } });
    const customerId = envelope.payload.customerId;
    if (!reservation) {
      // Every customer a cancel named, until the order shows whose it is (see the migration).
      await manager.query(
        `INSERT INTO cancelled_orders (order_id, cancel_message_id, customer_ids) VALUES ($1, $2, ARRAY[$3::text])
         ON CONFLICT (order_id) DO UPDATE SET customer_ids = array_append(cancelled_orders.customer_ids, $3::text)
         WHERE cancelled_orders.customer_ids IS NOT NULL AND NOT ($3::text = ANY (cancelled_orders.customer_ids))`,
        [orderId, envelope.messageId, customerId],
      );
      return;
    }
    // A cancel names its customer; only the order's own may release it. Null: reserved before the
    // customer was kept, so nothing to compare with.
    if (reservation.customerId !== null && reservation.customerId !== customerId) {
      this.logger.warn(`OrderCancelled ${envelope.messageId} names customer ${customerId}, not the order's: nothing released`);
      return;
    }
    if (reservation.status !== 'RESERVED') return;
    // Same SKU order as reserving, so a release and a reservation never deadlock.
    for (const line of reservation.items) {
      await manager.query(
        'UPDATE stock_items SET available = available + $2, reserved = reserved - $2, updated_at = now() WHERE sku = $1',
        [line.sku, line.quantity],
      );
    }
    reservation.status = 'RELEASED';
    reservation.releasedAt = new Date();
    await reservations.save(reservation);
    const reversal = loyaltyReversalCommand(await this.accrued(manager, reservation, envelope.payload));
    if (reversal) await this.commands.enqueue(reversal);
    const payload: StockReleased = { orderId: reservation.orderId, items: reservation.items, releasedAt: new Date().toISOString() };
    await this.outbox.add({ ...reservationEventBase(envelope, ReservationEvents.StockReleased), payload });
  }

  /**
   * What the reservation's accrual credited. A reservation made before the points were kept on it
   * (`loyalty_points` null: an older replica during a rolling deploy) falls back to the accrual
   * command's body; with neither, it credited nothing that can be found, and nothing is reversed.
   */
  private async accrued(manager: EntityManager, reservation: Reservation, cancel: OrderCancelled): Promise<ReversalRequest> {
    if (reservation.loyaltyPoints !== null) {
      return { customerId: reservation.customerId ?? cancel.customerId, orderId: reservation.orderId, points: reservation.loyaltyPoints };
    }
    const [command]: { body: ReversalRequest }[] = await manager.query(`SELECT body FROM ${LOYALTY_COMMANDS_TABLE} WHERE id = $1`, [
      accrualOperationId(reservation.orderId),
    ]);
    return command ? command.body : { customerId: cancel.customerId, orderId: reservation.orderId, points: 0 };
  }
}
