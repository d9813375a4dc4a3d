import { Headers, type MessageDeclaration } from '@libs/envelope';
import type { InboxEnvelope } from '@libs/inbox';

/**
 * The outbox fields shared by every reservation event: keyed by order id (the answers of one order
 * stay in order), correlated with the order's chain, caused by the message being handled.
 * No `traceparent`: the outbox writer takes the active consumer span's, which continues the cause's trace.
 */
export function reservationEventBase<P>(cause: InboxEnvelope<{ orderId: string }>, message: MessageDeclaration<P>) {
  return {
    message,
    aggregateType: 'reservation',
    aggregateId: cause.payload.orderId,
    correlationId: cause.headers[Headers.correlationId] ?? cause.payload.orderId,
    causationId: cause.messageId,
  };
}
