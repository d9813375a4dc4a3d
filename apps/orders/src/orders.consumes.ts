import { ReservationEvents, Topics } from '@libs/contracts';
import { type AppConsumes, consumedTopic } from '@libs/inbox';
import { ReservationResultsHandler } from './reservations/reservation-results.handler.js';
import { OrdersFailpoints } from './orders.failpoints.js';

/**
 * What orders consumes, declared once: the subscriptions and topics of `main.ts`, the inbox and
 * lag metrics of the app module, the AsyncAPI document and the service catalog all read it.
 */
export const ordersConsumes: AppConsumes = [
  consumedTopic({
    topic: Topics.reservations,
    consumer: 'orders.reservation-results',
    accepts: ReservationEvents,
    handler: ReservationResultsHandler,
    beforeCommitFailpoint: OrdersFailpoints.afterHandlerBeforeCommit,
    afterCommitFailpoint: OrdersFailpoints.afterCommitBeforeAck,
  }),
];
