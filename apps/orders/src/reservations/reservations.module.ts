import { Module } from '@nestjs/common';
import { ApplyReservationResultService } from './apply-reservation-result.service.js';
import { ReservationResultsHandler } from './reservation-results.handler.js';

/** Applies inventory's answers; `orders.consumes.ts` routes `inventory.reservation.v1` to {@link ReservationResultsHandler}. */
@Module({ providers: [ReservationResultsHandler, ApplyReservationResultService] })
export class ReservationsModule {}
