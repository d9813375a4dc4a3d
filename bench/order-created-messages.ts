// The OrderCreated records the inbox benchmark pre-fills the orders topic with: what the orders
// service would publish for a benchmark order, envelope headers included, without running it.
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@libs/config';
import { OrderEvents, type OrderCreated, orderTotalCents, Topics } from '@libs/contracts';
import { Headers, messageSigning, messageSigningEnv, signatureHeaders } from '@libs/envelope';
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
  const headers: Record<string, string> = {
    [Headers.messageId]: randomUUID(),
    [Headers.messageType]: OrderEvents.OrderCreated.type,
    [Headers.schemaVersion]: String(OrderEvents.OrderCreated.schemaVersion),
    [Headers.aggregateId]: orderId,
    [Headers.occurredAt]: payload.createdAt,
    [Headers.correlationId]: orderId,
  };
  // Signed as the relay signs (the bench's keys are the apps' own): the inventory app refuses the unsigned.
  const signer = messageSigning(loadConfig(messageSigningEnv, process.env)).signWith;
  if (signer) Object.assign(headers, signatureHeaders({ topic: Topics.orders, key: orderId, headers, payload }, signer));
  return { key: orderId, value: JSON.stringify(payload), headers };
}
