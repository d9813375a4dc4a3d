// Inbox figure: the inventory app (the built process) against PlainReservationConsumer (same
// transaction, no inbox row, no Nest), each draining the same pre-filled `orders.order.v1` from the
// same offsets into its own database. The fair figure idles the app's relay and loyalty dispatcher
// (the plain consumer has neither); the full-app figure runs them, as production does. Rate = reservations / (last reservation - first reservation), from the table's own
// created_at, so neither process's start-up or group join counts.
import { Topics } from '@libs/contracts';
import { createKafka } from '@libs/kafka';
import {
  deleteConsumerGroups,
  migrateServiceDatabase,
  queryTestDatabase,
  type ServiceSet,
  startGroupAtEnd,
  uniqueName,
  waitFor,
} from '@tools/local-stack';
import type { BenchInfrastructure } from './bench-infrastructure.js';
import { orderCreatedMessage } from './order-created-messages.js';
import { BENCH_SKUS, BENCH_STOCK_PER_SKU, orderBody } from './order-requests.js';
import { PlainReservationConsumer } from './plain-reservation-consumer.js';

export interface InboxBenchOptions {
  messages: number;
  plainConcurrency: number;
  timeoutMs: number;
}

export interface InboxBenchResult {
  /** The app with its relay and dispatcher idle: the same work as the plain consumer. */
  inventoryPerSec: number;
  plainPerSec: number;
  ratio: number;
  /** The app with its relay publishing and its dispatcher calling loyalty during the drain. */
  fullAppPerSec: number;
  fullAppRatio: number;
  /**
   * The same inventory app with batching and concurrent partitions switched off
   * (`INBOX_BATCH_SIZE=1`, `KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY=1`): one transaction per
   * message, one message at a time, as the inbox consumed before batches. The "before" figure.
   */
  oneByOnePerSec: number;
  oneByOneRatio: number;
}

/**
 * The fair run's settings: no relay in the process, and a dispatcher that looked once at start-up
 * (nothing due) and not again for an hour, so the drain does only what the plain consumer does.
 */
const RELAY_AND_DISPATCHER_IDLE = { OUTBOX_RELAY_ENABLED: 'false', LOYALTY_DISPATCH_INTERVAL_MS: '3600000' };

/** The consumer settings of the "before" run: a transaction per message, one partition at a time. */
const ONE_BY_ONE = { INBOX_BATCH_SIZE: '1', KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY: '1' };

/** Every benchmark SKU with ample stock, straight into `database` (set-up, not measured). */
export async function seedStock(serverUrl: string, database: string): Promise<void> {
  await queryTestDatabase(
    serverUrl,
    database,
    'INSERT INTO stock_items (sku, available) SELECT unnest($1::text[]), $2 ON CONFLICT (sku) DO UPDATE SET available = EXCLUDED.available',
    [BENCH_SKUS, BENCH_STOCK_PER_SKU],
  );
}

/** `count` valid OrderCreated records on the orders topic, in batches (set-up, not measured). */
async function fillOrdersTopic(brokers: string[], count: number): Promise<void> {
  const producer = createKafka({ brokers, clientId: 'bench-inbox-fill' }).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    for (let start = 0; start < count; start += 500) {
      const messages = [];
      for (let n = start; n < Math.min(count, start + 500); n += 1) {
        const body = orderBody(n);
        messages.push(orderCreatedMessage(body));
      }
      await producer.sendBatch({ acks: -1, topicMessages: [{ topic: Topics.orders, messages }] });
    }
  } finally {
    await producer.disconnect();
  }
}

/** Waits until `database` holds `expected` reservations; returns their rate from created_at. */
async function drainRate(serverUrl: string, database: string, expected: number, timeoutMs: number, what: string): Promise<number> {
  const row = await waitFor(
    async () => {
      const [counts] = await queryTestDatabase<{ n: number; span_ms: number }>(
        serverUrl,
        database,
        'SELECT count(*)::int AS n, (extract(epoch FROM max(created_at) - min(created_at)) * 1000)::float8 AS span_ms FROM reservations',
      );
      return counts.n >= expected ? counts : undefined;
    },
    { timeoutMs, intervalMs: 250, description: `${what} to reserve ${expected} orders` },
  );
  return (row.n - 1) / (row.span_ms / 1000);
}

export async function runInboxBench(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  loyaltyBaseUrl: string,
  options: InboxBenchOptions,
  log: (text: string) => void,
): Promise<InboxBenchResult> {
  const { serverUrl, brokers } = infrastructure;
  const inventoryDb = await services.createDatabase('bench_inbox_inventory');
  const plainDb = await services.createDatabase('bench_inbox_plain');
  await migrateServiceDatabase('inventory', serverUrl, plainDb);
  // Started once so that its group is positioned at the topic's end, then stopped until the fill is there.
  const inventory = await services.start({ service: 'inventory', database: inventoryDb, env: { LOYALTY_BASE_URL: loyaltyBaseUrl } });
  await inventory.stop();
  await seedStock(serverUrl, inventoryDb);
  await seedStock(serverUrl, plainDb);
  const plainGroup = uniqueName('bench-plain-inbox');
  await startGroupAtEnd(brokers, plainGroup, [Topics.orders]);
  await fillOrdersTopic(brokers, options.messages);
  log(`inbox: ${options.messages} OrderCreated records on ${Topics.orders}`);

  const plain = await PlainReservationConsumer.start({
    brokers,
    serverUrl,
    database: plainDb,
    groupId: plainGroup,
    concurrency: options.plainConcurrency,
  });
  let plainPerSec: number;
  try {
    plainPerSec = await drainRate(serverUrl, plainDb, options.messages, options.timeoutMs, 'the plain consumer');
  } finally {
    await plain.stop();
    await deleteConsumerGroups(brokers, [plainGroup]).catch(() => undefined);
  }
  log(`inbox: plain consumer ${Math.round(plainPerSec)} msg/s`);

  await inventory.restart();
  const fullAppPerSec = await drainRate(serverUrl, inventoryDb, options.messages, options.timeoutMs, 'the inventory app');
  log(`inbox: inventory app, relay and dispatcher running, ${Math.round(fullAppPerSec)} msg/s`);
  await inventory.stop();

  const fairDb = await services.createDatabase('bench_inbox_fair');
  const fair = await services.start({
    service: 'inventory',
    database: fairDb,
    env: { LOYALTY_BASE_URL: loyaltyBaseUrl, ...RELAY_AND_DISPATCHER_IDLE },
  });
  await fair.stop();
  await seedStock(serverUrl, fairDb);
  await fillOrdersTopic(brokers, options.messages);
  await fair.restart();
  const inventoryPerSec = await drainRate(
    serverUrl,
    fairDb,
    options.messages,
    options.timeoutMs,
    'the inventory app, relay and dispatcher idle',
  );
  log(`inbox: inventory app, relay and dispatcher idle, ${Math.round(inventoryPerSec)} msg/s`);
  await fair.stop();

  // The "before" run: its own database and group, positioned at the end, then a fresh fill.
  const oneByOneDb = await services.createDatabase('bench_inbox_one_by_one');
  const oneByOne = await services.start({
    service: 'inventory',
    database: oneByOneDb,
    env: { LOYALTY_BASE_URL: loyaltyBaseUrl, ...ONE_BY_ONE },
  });
  await oneByOne.stop();
  await seedStock(serverUrl, oneByOneDb);
  await fillOrdersTopic(brokers, options.messages);
  await oneByOne.restart();
  const oneByOnePerSec = await drainRate(
    serverUrl,
    oneByOneDb,
    options.messages,
    options.timeoutMs,
    'the inventory app, one message per transaction',
  );
  log(`inbox: inventory app one message per transaction ${Math.round(oneByOnePerSec)} msg/s`);
  await oneByOne.stop();
  return {
    inventoryPerSec,
    plainPerSec,
    ratio: inventoryPerSec / plainPerSec,
    fullAppPerSec,
    fullAppRatio: fullAppPerSec / plainPerSec,
    oneByOnePerSec,
    oneByOneRatio: oneByOnePerSec / plainPerSec,
  };
}
