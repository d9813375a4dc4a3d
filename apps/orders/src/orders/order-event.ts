import type { MessageDeclaration } from '@libs/envelope';
import type { OutboxEvent } from '@libs/outbox';

/**
 * An order's event for the outbox: keyed by the order id, so all its events share a partition. The
 * writer validates `payload` against `message` before the insert and publishes it on its topic.
 */
export function orderEvent<P>(message: MessageDeclaration<P>, orderId: string, payload: P): OutboxEvent<P> {
  return {
    message,
    aggregateType: 'order',
    aggregateId: orderId,
    payload,
  };
}
