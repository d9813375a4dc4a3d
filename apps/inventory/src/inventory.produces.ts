import { ReservationEvents, Topics } from '@libs/contracts';
import { type AppProduces, producedTopic } from '@libs/outbox';

/**
 * What inventory writes through its outbox, declared once: the topics `main.ts` creates, the
 * AsyncAPI document, the service catalog (and so its Kafka ACLs) and its service page all read it.
 * A message added to `ReservationEvents` is declared here with it.
 */
export const inventoryProduces: AppProduces = [producedTopic({ topic: Topics.reservations, sends: ReservationEvents })];
