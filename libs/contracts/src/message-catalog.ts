import type { SchemaCheck } from './payload-checks.js';
import { OrderEvents } from './order-events.js';
import { ReservationEvents } from './reservation-events.js';
import { Topics } from './topics.js';

export interface MessageDefinition {
  readonly type: string;
  readonly schemaVersion: number;
  /** The payload check; its `schema` is what the AsyncAPI document (docs/asyncapi.json) publishes. */
  readonly validate: SchemaCheck;
}

/** Which message types may appear on which topic: anything else is dead-lettered at once. */
export const MessageCatalog: Record<string, Record<string, MessageDefinition>> = {
  [Topics.orders]: OrderEvents,
  [Topics.reservations]: ReservationEvents,
};

export type MessageType = keyof typeof OrderEvents | keyof typeof ReservationEvents;

/** What a producer is about to publish (structurally an outbox event). */
export interface OutgoingMessage {
  topic: string;
  messageType: string;
  schemaVersion: number;
  payload: unknown;
}

/**
 * The problems a consumer would find in `message`, found where it is made: the same catalog entry
 * the consumer's inbox validates against (unknown type on the topic, other schema version, payload
 * shape). Empty means a consumer will accept it. Producers run it before the outbox insert, so a
 * violation fails the producing transaction instead of dead-lettering at a consumer.
 */
export function messageProblems(message: OutgoingMessage): string[] {
  const definition = MessageCatalog[message.topic]?.[message.messageType];
  if (!definition) return [`message type "${message.messageType}" is not known on ${message.topic}`];
  if (message.schemaVersion !== definition.schemaVersion) {
    return [`${message.messageType} schema version ${message.schemaVersion} is not ${definition.schemaVersion}`];
  }
  return definition.validate(message.payload, 'payload');
}
