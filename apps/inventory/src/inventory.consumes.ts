import { OrderEvents, Topics } from '@libs/contracts';
import { type AppConsumes, consumedTopic } from '@libs/inbox';
import { OrderEventsHandler } from './reservations/order-events.handler.js';
import { StockBatchLocks } from './reservations/stock-batch-locks.js';
import { InventoryFailpoints } from './inventory.failpoints.js';

/**
 * The order events inventory accepts on `orders.order.v1`. The handler map
 * ({@link OrderEventsHandler}) and the batch lock order ({@link StockBatchLocks}) are typed from
 * it: a message added here without its handler or its lock entry does not compile.
 */
export const OrderEventsAccepted = { OrderCreated: OrderEvents.OrderCreated, OrderCancelled: OrderEvents.OrderCancelled } as const;
export type OrderEventsAccepted = typeof OrderEventsAccepted;

/**
 * What inventory consumes, declared once: the subscriptions and topics of `main.ts`, the inbox and
 * lag metrics of the app module, the AsyncAPI document and the service catalog all read it.
 */
export const inventoryConsumes: AppConsumes = [
  consumedTopic({
    topic: Topics.orders,
    consumer: 'inventory.order-events',
    accepts: OrderEventsAccepted,
    handler: OrderEventsHandler,
    locks: StockBatchLocks,
    beforeCommitFailpoint: InventoryFailpoints.afterHandlerBeforeCommit,
    afterCommitFailpoint: InventoryFailpoints.afterCommitBeforeAck,
  }),
];
