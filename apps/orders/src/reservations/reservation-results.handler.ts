import { Injectable } from '@nestjs/common';
import { ReservationEvents } from '@app/contracts';
import { eachMessage, type HandlerMap, type InboxHandler } from '@app/inbox';
import { OrderStatus } from '../orders/order-status.js';
import { ApplyReservationResultService } from './apply-reservation-result.service.js';

/** Inventory's answers (`inventory.reservation.v1`), one message at a time: each is one conditional UPDATE. */
@Injectable()
export class ReservationResultsHandler implements InboxHandler<typeof ReservationEvents> {
  constructor(private readonly results: ApplyReservationResultService) {}

  readonly handlers: HandlerMap<typeof ReservationEvents> = {
    StockReserved: eachMessage((answer) =>
      this.results.apply(answer, { status: OrderStatus.Reserved, rejectionCode: null, rejectionReason: null }),
    ),
    StockRejected: eachMessage((answer) =>
      this.results.apply(answer, {
        status: OrderStatus.Rejected,
        rejectionCode: answer.payload.reasonCode,
        rejectionReason: answer.payload.reason,
      }),
    ),
    // A release follows a cancel, which already made the order CANCELLED: nothing to change.
    StockReleased: eachMessage((answer) => this.results.apply(answer, undefined)),
  };
}
