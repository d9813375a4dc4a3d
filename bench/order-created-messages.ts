// The OrderCreated records the inbox benchmark pre-fills the orders topic with: what the orders
// service would publish for a benchmark order, envelope headers included, without running it.
import { randomUUID } from 'node:crypto';
import { OrderEvents, type OrderCreated, orderTotalCents } from '@app/contracts';
import { Headers } from '@app/envelope';
import { type OrderBody, pricedLines } from './order-requests.js';

/** A Kafka message of `OrderCreated` for `body`, keyed by its new order id, as the outbox relay sends it. */
export function orderCreatedMessage(body: OrderBody): { key: string; value: string; headers: Record<string, string> } {
  const orderId = randomUUID();
  const items = pricedLines(body);
  const payload: OrderCreated = {
    orderId,
    customerId: body.customerId,
    items,
    totalCents: orderTotalCents(items),
    createdAt: new Date().toISOString(),
  };
  return {
    key: orderId,
    value: JSON.stringify(payload),
    headers: {
      [Headers.messageId]: randomUUID(),
      [Headers.messageType]: OrderEvents.OrderCreated.type,
      [Headers.schemaVersion]: String(OrderEvents.OrderCreated.schemaVersion),
      [Headers.aggregateId]: orderId,
      [Headers.occurredAt]: payload.createdAt,
      [Headers.correlationId]: orderId,
    },
  };
}
