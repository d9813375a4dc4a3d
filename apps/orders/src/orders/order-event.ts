import { type MessageDefinition, Topics } from '@app/contracts';
import type { OutboxEvent } from '@app/outbox';

/** An order's event for the outbox: keyed by the order id, so all its events share a partition. */
export function orderEvent<P>(definition: MessageDefinition, orderId: string, payload: P): OutboxEvent<P> {
  return {
    topic: Topics.orders,
    messageType: definition.type,
    schemaVersion: definition.schemaVersion,
    aggregateType: 'order',
    aggregateId: orderId,
    payload,
  };
}
