import { Module } from '@nestjs/common';
import { ApplyReservationResultService } from './apply-reservation-result.service.js';
import { ReservationResultsController } from './reservation-results.controller.js';

@Module({ controllers: [ReservationResultsController], providers: [ApplyReservationResultService] })
export class ReservationsModule {}
