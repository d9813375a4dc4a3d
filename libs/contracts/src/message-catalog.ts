import type { Check } from './payload-checks.js';
import { OrderEvents } from './order-events.js';
import { ReservationEvents } from './reservation-events.js';
import { Topics } from './topics.js';

export interface MessageDefinition {
  readonly type: string;
  readonly schemaVersion: number;
  readonly validate: Check;
}

/** Which message types may appear on which topic: anything else is dead-lettered at once. */
export const MessageCatalog: Record<string, Record<string, MessageDefinition>> = {
  [Topics.orders]: OrderEvents,
  [Topics.reservations]: ReservationEvents,
};

export type MessageType = keyof typeof OrderEvents | keyof typeof ReservationEvents;
