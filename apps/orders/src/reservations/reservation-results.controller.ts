import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ReservationEvents, Topics } from '@app/contracts';
import { Envelope, Inbox, type InboxEnvelope } from '@app/inbox';
import { annotateLog } from '@app/telemetry';
import { ApplyReservationResultService } from './apply-reservation-result.service.js';
import { OrdersFailpoints } from '../orders.failpoints.js';

/** Consumes inventory's answers (`inventory.reservation.v1`) through the inbox. */
@Controller()
export class ReservationResultsController {
  constructor(private readonly service: ApplyReservationResultService) {}

  @EventPattern(Topics.reservations)
  @Inbox({
    consumer: 'orders.reservation-results',
    accepts: [ReservationEvents.StockReserved, ReservationEvents.StockRejected, ReservationEvents.StockReleased],
    beforeCommitFailpoint: OrdersFailpoints.afterHandlerBeforeCommit,
    afterCommitFailpoint: OrdersFailpoints.afterCommitBeforeAck,
  })
  handle(@Envelope() envelope: InboxEnvelope): Promise<void> {
    annotateLog({ orderId: (envelope.payload as { orderId: string }).orderId });
    return this.service.apply(envelope);
  }
}
