import type { MessageDeclaration } from '@app/envelope';
import { OrderEvents } from './order-events.js';
import { ReservationEvents } from './reservation-events.js';
import { Topics } from './topics.js';

/**
 * Which messages travel on which topic: the domain's map, for the AsyncAPI document and for tests
 * that publish raw records. The pattern libraries never see it: an inbox handler lists the
 * declarations it accepts, an outbox event carries its own.
 */
export const MessageCatalog: Record<string, Record<string, MessageDeclaration>> = {
  [Topics.orders]: OrderEvents,
  [Topics.reservations]: ReservationEvents,
};
