import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { loadConfig } from '@libs/config';
import type { StockRejected, StockReleased, StockReserved } from '@libs/contracts';
import { migrateDatabase, TransactionContext } from '@libs/database';
import { Headers } from '@libs/envelope';
import {
  type DeadLetter,
  DeadLetterPublisher,
  type InboxBatch,
  LayeredInbox,
  inboxEnv,
  InboxMetrics,
  type RawInboxMessage,
} from '@libs/inbox';
import { createKafka } from '@libs/kafka';
import { consumeRedelivered, StatementCounter, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { ordersConsumes } from '../orders.consumes.js';
import { createOrdersDataSource } from '../orders.data-source.js';
import { ApplyReservationResultService } from './apply-reservation-result.service.js';
import { ReservationResultsHandler } from './reservation-results.handler.js';

/**
 * Set-based reservation results, counted: a batch of inventory's answers through the real inbox
 * (claim, handler, commit) on a real orders database costs the same SQL statements for 1 answer as
 * for 50 in a run. Statements are counted by the data source's logger, which TypeORM calls for
 * every query it sends (BEGIN and COMMIT included). Dead letters are kept in memory, not sent: the
 * real process's int-spec proves what reaches the dead-letter topic.
 */
const { serverUrl, brokers } = testInfrastructure();
const MAX_ATTEMPTS = 2;
const SEEDED_AT = '2000-01-01T00:00:00.000Z';

/** Keeps the dead letters instead of publishing them. */
class KeptDeadLetters extends DeadLetterPublisher {
  letters: DeadLetter[] = [];
  override async publish(letter: DeadLetter): Promise<void> {
    this.letters.push(letter);
  }
}

type Answer =
  | { type: 'StockReserved'; payload: StockReserved }
  | { type: 'StockRejected'; payload: StockRejected }
  | { type: 'StockReleased'; payload: StockReleased };

const items = [{ sku: 'SKU-STATEMENTS', quantity: 1 }];
const reserved = (orderId: string): Answer => ({
  type: 'StockReserved',
  payload: { orderId, items, reservedAt: new Date().toISOString() },
});
// Inventory's text on the wire is never stored (orders writes its own from the code and SKUs), so
// answers tell each other apart by the SKUs they name.
const rejected = (orderId: string, skus = ['SKU-STATEMENTS']): Answer => ({
  type: 'StockRejected',
  payload: {
    orderId,
    reasonCode: 'INVENTORY.INSUFFICIENT_STOCK',
    reason: `Insufficient stock for ${orderId}`,
    skus,
    rejectedAt: new Date().toISOString(),
  },
});
const released = (orderId: string): Answer => ({
  type: 'StockReleased',
  payload: { orderId, items, releasedAt: new Date().toISOString() },
});

interface OrderRow {
  status: string;
  rejection_code: string | null;
  rejection_reason: string | null;
  moved: boolean;
}

describe('orders applying a batch of reservation results (real Postgres): statements per run', () => {
  const counter = new StatementCounter();
  const topic = ordersConsumes[0].topic;
  let database: string;
  let dataSource: DataSource;
  let deadLetters: KeptDeadLetters;
  let offset = 0;

  const consumerAndRoute = () => {
    const tx = new TransactionContext(dataSource);
    const handler = new ReservationResultsHandler(new ApplyReservationResultService(tx));
    const inbox = new LayeredInbox(tx, deadLetters, new InboxMetrics(new Registry()), {
      ...loadConfig(inboxEnv, {}),
      INBOX_BATCH_SIZE: 200,
      INBOX_MAX_ATTEMPTS: MAX_ATTEMPTS,
      INBOX_RETRY_BASE_MS: 10,
      INBOX_RETRY_MAX_MS: 20,
    });
    const instances = new Map<unknown, object>([[ReservationResultsHandler, handler]]);
    return { inbox, route: ordersConsumes[0].route(<T>(type: new (...args: never[]) => T) => instances.get(type) as T) };
  };

  const record = ({ type, payload }: Answer): RawInboxMessage => {
    offset += 1;
    return {
      topic,
      partition: 0,
      offset: String(offset),
      key: payload.orderId,
      value: payload,
      headers: {
        [Headers.messageId]: randomUUID(),
        [Headers.messageType]: type,
        [Headers.schemaVersion]: '1',
        [Headers.aggregateId]: payload.orderId,
      },
    };
  };

  const batchOf = (records: RawInboxMessage[], retryLater: (delayMs: number) => void): InboxBatch => ({
    topic,
    partition: 0,
    records,
    resolve: () => undefined,
    heartbeat: async () => undefined,
    isActive: () => true,
    retryLater,
  });

  /**
   * Statements to consume `answers` as one batch (and its redeliveries, when a handler fails), and
   * the outcome of each; the crash-loop breaker's work marks (before and after the transaction) apart.
   */
  async function statementsFor(
    answers: Answer[],
  ): Promise<{ statements: string[]; workMarks: string[]; outcomes: string[]; records: RawInboxMessage[] }> {
    const { inbox, route } = consumerAndRoute();
    const records = answers.map(record);
    counter.texts = [];
    const outcomes = await consumeRedelivered(records, (pending, retryLater) => inbox.deliver(batchOf(pending, retryLater), route));
    // (The counter keeps 80 characters: the mark statement's table name comes later than its CTE.)
    const isMark = (text: string) => text.includes('inbox_work_marks') || text.startsWith('WITH wanted AS (');
    return { statements: counter.texts.filter((text) => !isMark(text)), workMarks: counter.texts.filter(isMark), outcomes, records };
  }

  /** `count` orders in `status`, last updated long ago (so a move shows in updated_at). */
  async function ordersIn(status: string, count: number, rejection: [string, string] | [null, null] = [null, null]): Promise<string[]> {
    const ids = Array.from({ length: count }, () => randomUUID());
    await dataSource.query(
      `INSERT INTO orders (id, customer_id, status, total_cents, rejection_code, rejection_reason, created_at, updated_at)
       SELECT id, 'statement-counter', $2, 500, $3, $4, $5, $5 FROM unnest($1::uuid[]) AS id`,
      [ids, status, ...rejection, SEEDED_AT],
    );
    return ids;
  }

  async function rowsOf(ids: readonly string[]): Promise<OrderRow[]> {
    const rows: (OrderRow & { id: string })[] = await dataSource.query(
      `SELECT id, status, rejection_code, rejection_reason, updated_at <> $2 AS moved FROM orders WHERE id = ANY($1::uuid[])`,
      [ids, SEEDED_AT],
    );
    const byId = new Map(rows.map(({ id, ...row }) => [id, row]));
    return ids.map((id) => byId.get(id)!);
  }

  const times = <T>(count: number, row: T): T[] => Array.from({ length: count }, () => row);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'orders_statements');
    const plain = createOrdersDataSource({
      DATABASE_URL: serverUrl,
      DATABASE_NAME: database,
      DATABASE_POOL_SIZE: 2,
      DATABASE_STATEMENT_TIMEOUT_MS: 0,
      DATABASE_LOCK_TIMEOUT_MS: 0,
    });
    await migrateDatabase(plain, serverUrl, database);
    dataSource = new DataSource({ ...plain.options, logger: counter });
    await dataSource.initialize();
    deadLetters = new KeptDeadLetters(createKafka({ brokers, clientId: 'test-orders-statements' }));
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when a run of 1 and a run of 50 StockReserved move pending orders, then both cost the same statements: one UPDATE, not one per answer', async () => {
    const [first] = await ordersIn('PENDING', 1);
    const pending = await ordersIn('PENDING', 50);

    const one = await statementsFor([reserved(first)]);
    const fifty = await statementsFor(pending.map(reserved));

    expect(one.outcomes).toEqual(['processed']);
    expect(fifty.outcomes).toEqual(times(50, 'processed'));
    expect(fifty.statements).toEqual(one.statements);
    // BEGIN and isolation, claim, the UPDATE, COMMIT: no SELECT, every order moved.
    expect(one.statements.filter((text) => text.startsWith('UPDATE orders'))).toHaveLength(1);
    expect(one.statements.filter((text) => text.startsWith('SELECT id FROM orders'))).toHaveLength(0);
    expect(one.statements.length).toBeLessThanOrEqual(5);
    // The crash-loop breaker: one mark before the transaction, one clear after, for 1 answer as for 50.
    expect(one.workMarks).toHaveLength(2);
    expect(fifty.workMarks).toHaveLength(2);
    expect(await rowsOf([first, ...pending])).toEqual(
      times(51, { status: 'RESERVED', rejection_code: null, rejection_reason: null, moved: true }),
    );
  });

  it('when a batch mixes runs of each answer over pending, cancelled, final and repeated orders, then each run costs one UPDATE and one SELECT, for 1 answer as for 50, and only PENDING orders move', async () => {
    const [cancelledReserved, cancelledRejected, cancelledReleased] = await ordersIn('CANCELLED', 3);
    const single = await statementsFor([reserved(cancelledReserved), rejected(cancelledRejected), released(cancelledReleased)]);

    const toReserve = await ordersIn('PENDING', 20);
    const toReject = await ordersIn('PENDING', 20);
    const cancelled = await ordersIn('CANCELLED', 10);
    const alreadyRejected = await ordersIn('REJECTED', 10, ['INVENTORY.UNKNOWN_SKU', 'Unknown SKU(s): SKU-GONE']);
    const alreadyReserved = await ordersIn('RESERVED', 10);
    const reservedRun = [
      ...toReserve.map(reserved),
      ...cancelled.map(reserved),
      ...alreadyRejected.map(reserved),
      // The same orders again, answered by other messages: the first answer moved them.
      ...toReserve.slice(0, 10).map(reserved),
    ];
    const rejectedRun = [
      ...toReject.map((id) => rejected(id)),
      ...cancelled.map((id) => rejected(id)),
      ...alreadyReserved.map((id) => rejected(id)),
      // A second rejection of an order in the same run: the first one's reason stays.
      ...toReject.slice(0, 10).map((id) => rejected(id, ['SKU-TOO-LATE'])),
    ];
    const releasedRun = [...cancelled, ...toReserve, ...alreadyRejected, ...toReject.slice(0, 10)].map(released);
    const mixed = await statementsFor([...reservedRun, ...rejectedRun, ...releasedRun]);

    expect(single.outcomes).toEqual(times(3, 'processed'));
    expect(mixed.outcomes).toEqual(times(150, 'processed'));
    expect([reservedRun.length, rejectedRun.length, releasedRun.length]).toEqual([50, 50, 50]);
    expect(mixed.statements).toEqual(single.statements);
    // BEGIN and isolation, claim, UPDATE and SELECT (reserved), UPDATE and SELECT (rejected), SELECT (released), COMMIT.
    expect(single.statements.filter((text) => text.startsWith('UPDATE orders'))).toHaveLength(2);
    expect(single.statements.filter((text) => text.startsWith('SELECT id FROM orders'))).toHaveLength(3);
    expect(single.statements.length).toBeLessThanOrEqual(9);

    expect(await rowsOf([cancelledReserved, cancelledRejected, cancelledReleased, ...cancelled])).toEqual(
      times(13, { status: 'CANCELLED', rejection_code: null, rejection_reason: null, moved: false }),
    );
    expect(await rowsOf(toReserve)).toEqual(times(20, { status: 'RESERVED', rejection_code: null, rejection_reason: null, moved: true }));
    expect(await rowsOf(toReject)).toEqual(
      toReject.map(() => ({
        status: 'REJECTED',
        rejection_code: 'INVENTORY.INSUFFICIENT_STOCK',
        rejection_reason: 'Not enough stock: SKU-STATEMENTS',
        moved: true,
      })),
    );
    expect(await rowsOf(alreadyRejected)).toEqual(
      times(10, {
        status: 'REJECTED',
        rejection_code: 'INVENTORY.UNKNOWN_SKU',
        rejection_reason: 'Unknown SKU(s): SKU-GONE',
        moved: false,
      }),
    );
    expect(await rowsOf(alreadyReserved)).toEqual(
      times(10, { status: 'RESERVED', rejection_code: null, rejection_reason: null, moved: false }),
    );
  });

  it(`when a run holds an answer for an order orders never had, then the batch is replayed one message at a time: the other answers are applied and that one alone is dead-lettered after ${MAX_ATTEMPTS} attempts`, async () => {
    const [before, after] = await ordersIn('PENDING', 2);
    const stranger = randomUUID();
    deadLetters.letters = [];

    const { outcomes, records } = await statementsFor([reserved(before), reserved(stranger), reserved(after)]);

    expect(outcomes).toEqual(['processed', 'dead-lettered', 'processed']);
    expect(await rowsOf([before, after])).toEqual(
      times(2, { status: 'RESERVED', rejection_code: null, rejection_reason: null, moved: true }),
    );
    expect(deadLetters.letters).toHaveLength(1);
    expect(deadLetters.letters[0]).toMatchObject({
      message: records[1],
      reason: 'HANDLER_FAILED',
      attempts: MAX_ATTEMPTS,
      error: `ORDERS.NOT_FOUND: order ${stranger} of StockReserved ${records[1].headers[Headers.messageId] as string}`,
    });
  });
});
