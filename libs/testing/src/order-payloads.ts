import { randomUUID } from 'node:crypto';
import type { OrderCreated, OrderLine } from '@app/contracts';

/**
 * The payload of an `OrderCreated` event as the orders service would publish it: `totalCents` is
 * the sum of the lines, `createdAt` is now. Publish it with `eventRecord(Topics.orders, ...)`.
 */
export function orderCreatedPayload(customerId: string, items: OrderLine[], orderId: string = randomUUID()): OrderCreated {
  return {
    orderId,
    customerId,
    items,
    totalCents: items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0),
    createdAt: new Date().toISOString(),
  };
}

