// The OrderCreated records the inbox benchmark pre-fills the orders topic with: what the orders
// service would publish for a benchmark order, envelope headers included, without running it.
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@libs/config';
import { OrderEvents, type OrderCreated, orderTotalCents, Topics } from '@libs/contracts';
import { Headers, messageSigning, messageSigningEnv, signatureHeaders, type SigningKey } from '@libs/envelope';
import { localProducerSigningKey } from '@tools/local-stack';
import { type OrderBody, pricedLines } from './order-requests.js';

let ordersKey: SigningKey | undefined;

/** orders' signing key: `MESSAGE_SIGNING_KEY` when the environment names one, else its local key. */
function ordersSigningKey(): SigningKey {
  ordersKey ??= messageSigning(
    loadConfig(messageSigningEnv, { MESSAGE_SIGNING_KEY: process.env.MESSAGE_SIGNING_KEY || localProducerSigningKey('orders') }),
  ).signWith!;
  return ordersKey;
}

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
  // Signed as orders' relay signs, with orders' own key (the bench's keys are the apps' own): the
  // inventory app refuses the unsigned, and any other producer's key.
  Object.assign(headers, signatureHeaders({ topic: Topics.orders, key: orderId, headers, payload }, ordersSigningKey()));
  return { key: orderId, value: JSON.stringify(payload), headers };
}
