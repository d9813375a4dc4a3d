import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { Topics } from '@libs/contracts';
import { createDataSource, TransactionContext } from '@libs/database';
import type { MessageDeclaration } from '@libs/envelope';
import { consumedTopic, type HandlerMap, type InboxHandler } from '@libs/inbox';
import { inventoryConsumes, OrderEventsAccepted } from './inventory.consumes.js';
import { OrderEventsHandler } from './reservations/order-events.handler.js';
import { StockBatchLocks } from './reservations/stock-batch-locks.js';

/**
 * The consumes declaration is typed from the accepted messages: the handler map and the batch lock
 * order each need an entry per accepted message. The `@ts-expect-error` lines below are the proof
 * that a missing entry does not compile: `npm run typecheck` fails if one of them stops being an
 * error. The runtime checks are the second line, for code that got past the types.
 */
const OrderPacked = {
  topic: Topics.orders,
  type: 'OrderPacked',
  schemaVersion: 1,
  producer: 'orders',
  schema: z.strictObject({ orderId: z.guid() }),
} satisfies MessageDeclaration<{ orderId: string }>;
const WithPacked = { ...OrderEventsAccepted, OrderPacked };
type WithPacked = typeof WithPacked;

/** A handler for every message of {@link WithPacked}, so only the lock order is missing something. */
class HandlerOfAll implements InboxHandler<WithPacked> {
  readonly handlers: HandlerMap<WithPacked> = {
    OrderCreated: async () => undefined,
    OrderCancelled: async () => undefined,
    OrderPacked: async () => undefined,
  };
}

/** Instances without I/O: nothing here connects, the data source is never initialised. */
const tx = new TransactionContext(
  createDataSource({ serverUrl: 'postgres://nobody@127.0.0.1:1', database: 'never_test', entities: [], migrations: [] }),
);
const instances = new Map<unknown, object>([
  [StockBatchLocks, new StockBatchLocks(tx)],
  [HandlerOfAll, new HandlerOfAll()],
  [OrderEventsHandler, new OrderEventsHandler({ reserve: async () => undefined } as never, { release: async () => undefined } as never)],
]);
const get = <T>(type: new (...args: never[]) => T): T => instances.get(type) as T;

describe('what inventory consumes', () => {
  it('when a message that needs stock locks is accepted without its lock entry, then the declaration does not compile, and the route refuses to start', () => {
    const declared = consumedTopic({
      topic: Topics.orders,
      consumer: 'test.with-shipped',
      accepts: WithPacked,
      handler: HandlerOfAll,
      // @ts-expect-error StockBatchLocks declares no lock entry for OrderPacked
      locks: StockBatchLocks,
    });
    expect(() => declared.route(get)).toThrow('test.with-shipped: no lock entry for OrderPacked');
  });

  it('when an accepted message has no handler, then the handler map does not compile', () => {
    class MissingCancel implements InboxHandler<OrderEventsAccepted> {
      // @ts-expect-error OrderCancelled has no handler
      readonly handlers: HandlerMap<OrderEventsAccepted> = { OrderCreated: async () => undefined };
    }
    instances.set(MissingCancel, new MissingCancel());
    const declared = consumedTopic({
      topic: Topics.orders,
      consumer: 'test.missing',
      accepts: OrderEventsAccepted,
      handler: MissingCancel,
    });
    expect(() => declared.route(get)).toThrow('test.missing: no handler for OrderCancelled');
  });

  it('when an accepted message travels on another topic, then declaring it throws', () => {
    expect(() =>
      consumedTopic({
        topic: Topics.reservations,
        consumer: 'test.wrong-topic',
        accepts: OrderEventsAccepted,
        handler: OrderEventsHandler,
      }),
    ).toThrow(`test.wrong-topic: OrderCreated travels on ${Topics.orders}, not ${Topics.reservations}`);
  });

  it('when the declaration is read, then it names orders.order.v1, its consumer, the order events it accepts, and resolves its handler and locks', () => {
    expect(inventoryConsumes.map(({ topic, consumer }) => ({ topic, consumer }))).toEqual([
      { topic: Topics.orders, consumer: 'inventory.order-events' },
    ]);
    const route = inventoryConsumes[0].route(get);
    expect(route.accepts.map((message) => message.type)).toEqual(['OrderCreated', 'OrderCancelled']);
    expect(route.beforeCommitFailpoint).toBe('inventory.after-handler-before-commit');
    expect(route.afterCommitFailpoint).toBe('inventory.after-commit-before-ack');
  });
});
