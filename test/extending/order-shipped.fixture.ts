// The sample event of docs/extending.md, declared exactly as the guide shows it, so
// test/extending/extending-guide.spec.ts can run the guide's steps through the helpers the apps use.
// Not on any runtime path: nothing under apps/ or libs/ imports it.
import type { z } from 'zod';
import { OrderEvents, OrderFields, text, timestamp, tolerantRecord, Topics, uuid } from '@libs/contracts';
import type { MessageDeclaration } from '@libs/envelope';
import { consumedTopic, type HandlerMap, type InboxBatchLocks, type InboxHandler, type LockNeeds } from '@libs/inbox';
import { producedTopic } from '@libs/outbox';

// Step 1 (libs/contracts/src/order-events.ts): the payload, a tolerant reader, and its declaration.
const orderShipped = tolerantRecord({
  orderId: uuid(),
  customerId: OrderFields.customerId,
  carrier: text({ maxLength: 64 }),
  shippedAt: timestamp(),
});

export type OrderShipped = z.infer<typeof orderShipped>;

export const OrderShipped = {
  topic: Topics.orders,
  producer: 'orders',
  type: 'OrderShipped',
  schemaVersion: 1,
  schema: orderShipped,
  aggregateIdField: 'orderId',
} satisfies MessageDeclaration<OrderShipped>;

// Step 1 (libs/contracts/src/order-events.ts): `OrderEvents` with the new message in it.
export const sampleOrderEvents = { ...OrderEvents, OrderShipped } as const;

/** Step 1 (apps/orders/src/orders.produces.ts, unchanged): orders' produces declaration names `OrderEvents`. */
export const sampleProduces = [producedTopic({ topic: Topics.orders, sends: sampleOrderEvents })];

// Step 3 (apps/inventory/src/inventory.consumes.ts): the accepted messages, one more entry.
export const OrderEventsAccepted = {
  OrderCreated: OrderEvents.OrderCreated,
  OrderCancelled: OrderEvents.OrderCancelled,
  OrderShipped,
} as const;
export type OrderEventsAccepted = typeof OrderEventsAccepted;

/** Step 3 (apps/inventory/src/reservations/order-events.handler.ts): one handler per accepted message. */
export class OrderEventsHandler implements InboxHandler<OrderEventsAccepted> {
  readonly shipped: string[] = [];

  readonly handlers: HandlerMap<OrderEventsAccepted> = {
    OrderCreated: async () => undefined,
    OrderCancelled: async () => undefined,
    OrderShipped: async (shipments) => {
      for (const shipment of shipments) this.shipped.push(shipment.payload.orderId);
    },
  };
}

type StockLockNeed = { skus: readonly string[] } | { reservedBy: string };

/** Step 3 (apps/inventory/src/reservations/stock-batch-locks.ts): one lock entry per accepted message. */
export class StockBatchLocks implements InboxBatchLocks<OrderEventsAccepted, StockLockNeed> {
  readonly taken: StockLockNeed[][] = [];

  readonly needs: LockNeeds<OrderEventsAccepted, StockLockNeed> = {
    OrderCreated: (order) => ({ skus: order.items.map((line) => line.sku) }),
    OrderCancelled: (cancel) => ({ reservedBy: cancel.orderId }),
    // A shipment changes no stock row: it needs no SKU locked.
    OrderShipped: () => ({ skus: [] }),
  };

  async lock(needs: readonly StockLockNeed[]): Promise<void> {
    this.taken.push([...needs]);
  }
}

/** Step 3: what inventory consumes, with the new message in its accepted list. */
export const sampleConsumes = [
  consumedTopic({
    topic: Topics.orders,
    consumer: 'inventory.order-events',
    accepts: OrderEventsAccepted,
    handler: OrderEventsHandler,
    locks: StockBatchLocks,
  }),
];
