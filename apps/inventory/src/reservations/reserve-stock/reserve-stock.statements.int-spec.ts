import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import { CommandWriter } from '@libs/commands';
import type { OrderCreated } from '@libs/contracts';
import { migrateDatabase, TransactionContext } from '@libs/database';
import { Headers } from '@libs/envelope';
import { DeadLetterPublisher, type InboxBatch, LayeredInbox, inboxEnv, InboxMetrics, type RawInboxMessage } from '@libs/inbox';
import { createKafka } from '@libs/kafka';
import { OutboxWriter } from '@libs/outbox';
import { orderCreatedPayload, roundTripCounter, StatementCounter, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, uniqueSku } from '@tools/test-support';
import { inventoryConsumes } from '../../inventory.consumes.js';
import { createInventoryDataSource } from '../../inventory.data-source.js';
import { OrderEventsHandler } from '../order-events.handler.js';
import { ReleaseStockService } from '../release-stock/release-stock.service.js';
import { StockBatchLocks } from '../stock-batch-locks.js';
import { LOYALTY_COMMANDS_TABLE } from './loyalty-accrual.command.js';
import { ReserveStockService } from './reserve-stock.service.js';

/**
 * Set-based reservation, counted: a batch of OrderCreated through the real inbox (claim, locks,
 * handler, commit) on a real inventory database costs the same SQL statements for 1 order as for
 * 50. Statements are counted by the data source's logger, which TypeORM calls for every query it
 * sends (BEGIN and COMMIT included). Kafka is not touched: nothing here is dead-lettered.
 */
const { serverUrl, brokers } = testInfrastructure();

describe('inventory reserving a batch of orders (real Postgres): statements per batch', () => {
  const counter = new StatementCounter();
  const apple = uniqueSku('STMT-APPLE');
  const pear = uniqueSku('STMT-PEAR');
  let database: string;
  let dataSource: DataSource;
  let inbox: LayeredInbox;
  let deadLetters: DeadLetterPublisher;
  let trips: ReturnType<typeof roundTripCounter>;
  let offset = 0;

  const route = () => {
    const tx = new TransactionContext(dataSource);
    const outbox = new OutboxWriter(tx);
    const commands = new CommandWriter(tx, LOYALTY_COMMANDS_TABLE);
    const instances = new Map<unknown, object>([
      [
        OrderEventsHandler,
        new OrderEventsHandler(new ReserveStockService(tx, outbox, commands), new ReleaseStockService(tx, outbox, commands)),
      ],
      [StockBatchLocks, new StockBatchLocks(tx)],
    ]);
    inbox = new LayeredInbox(tx, deadLetters, new InboxMetrics(new Registry()), { ...loadConfig(inboxEnv, {}), INBOX_BATCH_SIZE: 100 });
    return inventoryConsumes[0].route(<T>(type: new (...args: never[]) => T) => instances.get(type) as T);
  };

  const record = (order: OrderCreated, partition = 0): RawInboxMessage => {
    offset += 1;
    return {
      topic: inventoryConsumes[0].topic,
      partition,
      offset: String(offset),
      key: order.orderId,
      value: order,
      headers: {
        [Headers.messageId]: randomUUID(),
        [Headers.messageType]: 'OrderCreated',
        [Headers.schemaVersion]: '1',
        [Headers.aggregateId]: order.orderId,
      },
    };
  };

  const batchOf = (records: RawInboxMessage[]): InboxBatch => ({
    topic: inventoryConsumes[0].topic,
    partition: records[0].partition,
    records,
    resolve: () => undefined,
    heartbeat: async () => undefined,
    isActive: () => true,
    // Every handler here succeeds: a retry would be a failure of the test's own set-up.
    retryLater: () => {
      throw new Error('a handler failed');
    },
  });

  /** The crash-loop breaker's statements (the counter keeps 80 characters: the mark's table name comes after its CTE). */
  const isWorkMark = (text: string) => text.includes('inbox_work_marks') || text.startsWith('WITH wanted AS (');

  /** Statements and round trips to consume `orders` as one batch, and the outcome of each. */
  async function statementsFor(
    orders: OrderCreated[],
  ): Promise<{ statements: string[]; workMarks: string[]; outcomes: string[]; roundTrips: number }> {
    const batchRoute = route();
    const records = orders.map(record);
    counter.texts = [];
    trips.reset();
    const outcomes = await inbox.deliver(batchOf(records), batchRoute);
    // The crash-loop breaker's work marks (before and after the transaction) apart from the transaction's.
    return {
      statements: counter.texts.filter((text) => !isWorkMark(text)),
      workMarks: counter.texts.filter(isWorkMark),
      outcomes,
      roundTrips: trips.count,
    };
  }

  const orderOf = (quantity: number) =>
    orderCreatedPayload('statement-counter', [
      { sku: apple, quantity, unitPriceCents: 300 },
      { sku: pear, quantity: 1, unitPriceCents: 150 },
    ]);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'inventory_statements');
    const plain = createInventoryDataSource({
      DATABASE_URL: serverUrl,
      DATABASE_NAME: database,
      DATABASE_POOL_SIZE: 2,
      DATABASE_STATEMENT_TIMEOUT_MS: 0,
      DATABASE_LOCK_TIMEOUT_MS: 0,
    });
    await migrateDatabase(plain, serverUrl, database);
    dataSource = new DataSource({ ...plain.options, logger: counter });
    await dataSource.initialize();
    trips = roundTripCounter(dataSource);
    await dataSource.query('INSERT INTO stock_items (sku, available) VALUES ($1, 1000), ($2, 1000)', [apple, pear]);
    deadLetters = new DeadLetterPublisher(createKafka({ brokers, clientId: 'test-inventory-statements' }));
  });

  afterAll(async () => {
    await deadLetters?.close();
    if (dataSource?.isInitialized) await dataSource.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when a batch of 1 and a batch of 50 orders are reserved, then both cost the same statements: one per step, not per order', async () => {
    const one = await statementsFor([orderOf(1)]);
    const fifty = await statementsFor(Array.from({ length: 50 }, (_, n) => orderOf(1 + (n % 3))));

    expect(one.outcomes).toEqual(['processed']);
    expect(fifty.outcomes).toEqual(Array.from({ length: 50 }, () => 'processed'));
    expect(fifty.statements).toEqual(one.statements);
    // BEGIN and isolation, claim, lock stock, lock orders, cancellations, read stock, update stock,
    // insert reservations, insert answers, insert commands, COMMIT.
    expect(one.statements.length).toBeLessThanOrEqual(12);
    // The crash-loop breaker: one mark before the transaction, one clear after, for 1 order as for 50.
    expect(one.workMarks).toHaveLength(2);
    expect(fifty.workMarks).toHaveLength(2);
    const [reservations] = await dataSource.query('SELECT count(*)::int AS n FROM reservations');
    const [commands] = await dataSource.query('SELECT count(*)::int AS n FROM loyalty_commands');
    const [answers] = await dataSource.query("SELECT count(*)::int AS n FROM outbox_messages WHERE message_type = 'StockReserved'");
    expect({ reservations: reservations.n, commands: commands.n, answers: answers.n }).toEqual({
      reservations: 51,
      commands: 51,
      answers: 51,
    });
  });

  it('when one fetch brings orders on three partitions, then they are reserved in one transaction at the statements of one batch, not three', async () => {
    const one = await statementsFor([orderOf(1)]);
    const batchRoute = route();
    const batches = [0, 1, 2].map((partition) => batchOf(Array.from({ length: 5 }, () => record(orderOf(1), partition))));
    counter.texts = [];
    // Handed over in one turn, as kafkajs hands over the partitions of one fetch.
    const outcomes = await Promise.all(batches.map((batch) => inbox.deliver(batch, batchRoute)));
    expect(outcomes).toEqual(batches.map(() => Array.from({ length: 5 }, () => 'processed')));
    expect(counter.texts.filter((text) => !isWorkMark(text))).toEqual(one.statements);
    // The three partitions' work marks go in one statement, and their clears in one more.
    expect(counter.texts.filter(isWorkMark)).toHaveLength(2);
  });

  it('when batches of 1 and of 50 orders are reserved on warm connections, then each costs 6 round trips (BEGIN with the claim, four locks and reads, and every write with the COMMIT) and the work mark and its clear', async () => {
    await dataSource.query('UPDATE stock_items SET available = 100000 WHERE sku = ANY($1)', [[apple, pear]]);
    // A connection's first batch parses its statements, and a write not yet parsed runs where it is written.
    const counts: Record<'one' | 'fifty', number[]> = { one: [], fifty: [] };
    for (let n = 0; n < 3; n += 1) {
      const one = await statementsFor([orderOf(1)]);
      const fifty = await statementsFor(Array.from({ length: 50 }, () => orderOf(1)));
      expect([...one.outcomes, ...fifty.outcomes].every((outcome) => outcome === 'processed')).toBe(true);
      counts.one.push(one.roundTrips);
      counts.fifty.push(fifty.roundTrips);
    }
    // 6 of the transaction, 2 of the crash-loop breaker (its mark before, its clear after).
    expect({ one: Math.min(...counts.one), fifty: Math.min(...counts.fifty) }).toEqual({ one: 6 + 2, fifty: 6 + 2 });
  });

  it('when a batch mixes reservable and short orders, then each is decided against the stock the earlier ones left, still at the same statement count', async () => {
    await dataSource.query('UPDATE stock_items SET available = 5 WHERE sku = $1', [apple]);
    // The first takes 3 of the 5 apples; the second (3) is then short; the third (2) still fits.
    const orders = [orderOf(3), orderOf(3), orderOf(2)];
    const mixed = await statementsFor(orders);
    await dataSource.query('UPDATE stock_items SET available = 5 WHERE sku = $1', [apple]);
    const single = await statementsFor([orderOf(3)]);

    expect(mixed.outcomes).toEqual(['processed', 'processed', 'processed']);
    expect(mixed.statements).toEqual(single.statements);
    const answers = await dataSource.query(
      `SELECT message_type, payload->>'reasonCode' AS code FROM outbox_messages WHERE aggregate_id = ANY($1) ORDER BY seq`,
      [orders.map((order) => order.orderId)],
    );
    expect(answers).toEqual([
      { message_type: 'StockReserved', code: null },
      { message_type: 'StockRejected', code: 'INVENTORY.INSUFFICIENT_STOCK' },
      { message_type: 'StockReserved', code: null },
    ]);
  });
});
