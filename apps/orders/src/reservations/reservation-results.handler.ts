import { Injectable } from '@nestjs/common';
import { ReservationEvents } from '@libs/contracts';
import type { HandlerMap, InboxHandler } from '@libs/inbox';
import { OrderStatus } from '../orders/order-status.js';
import { ApplyReservationResultService } from './apply-reservation-result.service.js';
import { rejectionText } from './rejection-text.js';

/**
 * Inventory's answers (`inventory.reservation.v1`), set-based: a run of one type costs one UPDATE,
 * plus one SELECT when some order was not moved, whatever its length.
 */
@Injectable()
export class ReservationResultsHandler implements InboxHandler<typeof ReservationEvents> {
  constructor(private readonly results: ApplyReservationResultService) {}

  readonly handlers: HandlerMap<typeof ReservationEvents> = {
    StockReserved: (answers) =>
      this.results.apply(answers, () => ({ status: OrderStatus.Reserved, rejectionCode: null, rejectionReason: null })),
    StockRejected: (answers) =>
      this.results.apply(answers, (answer) => ({
        status: OrderStatus.Rejected,
        rejectionCode: answer.payload.reasonCode,
        rejectionReason: rejectionText(answer.payload),
      })),
    // A release follows a cancel, which already made the order CANCELLED: nothing to change.
    StockReleased: (answers) => this.results.apply(answers, undefined),
  };
}
