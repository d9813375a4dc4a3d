import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@libs/config';
import { OrderEvents } from '@libs/contracts';
import { migrateDatabase, TransactionContext } from '@libs/database';
import { configureHttpApp } from '@libs/http';
import { OutboxEventRejectedError, OutboxWriter } from '@libs/outbox';
import { countRows, customerToken, roundTripCounter, seedPrices, testAuthEnv, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, queryTestDatabase, requestJson, uniqueName } from '@tools/test-support';
import { ordersApiDocs } from '../../orders.api-docs.js';
import { ordersEnv } from '../../orders.config.js';
import { createOrdersDataSource } from '../../orders.data-source.js';
import { OrdersAppModule } from '../../orders-app.module.js';
import { orderEvent } from '../order-event.js';

const { serverUrl, brokers } = testInfrastructure();
const TABLES = ['orders', 'order_items', 'outbox_messages', 'idempotency_keys'] as const;
const body = { items: [{ sku: 'SKU-ATOM', quantity: 2 }] };
const CUSTOMER = 'atomicity';

/**
 * The order, its items, its OutboxMessage and (with a key) its idempotency record commit in one
 * transaction, through the real HTTP stack: interceptor, validation, use case, OutboxWriter.
 * Failures are made real by constraints the database enforces, not by mocks.
 */
describe('POST /orders atomicity (real HTTP app, real Postgres)', () => {
  let database: string;
  let app: NestFastifyApplication;
  let baseUrl: string;
  const constraints: { table: string; name: string }[] = [];

  /** Makes every later insert (or update) of `table` fail with a check violation, until afterEach. */
  async function breakTable(table: string, check: string): Promise<void> {
    const name = uniqueName('test_break').toLowerCase();
    // NOT VALID: existing rows are not checked; every new or updated row is.
    await queryTestDatabase(serverUrl, database, `ALTER TABLE ${table} ADD CONSTRAINT ${name} CHECK (${check}) NOT VALID`);
    constraints.push({ table, name });
  }

  const count = () => countRows(serverUrl, database, TABLES);
  const post = async (headers: Record<string, string> = {}, payload: unknown = body, customer = CUSTOMER) =>
    requestJson('POST', `${baseUrl}/orders`, { body: payload, headers, token: await customerToken(customer) });

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'orders_atomicity');
    const config = loadConfig(ordersEnv, {
      ...testAuthEnv('orders'),
      DATABASE_URL: serverUrl,
      DATABASE_NAME: database,
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_CLIENT_ID: uniqueName('test-orders-atomicity'),
      KAFKA_CONSUMER_GROUP: uniqueName('test-orders-atomicity'),
      // This file is about the writing transaction; nothing needs to reach Kafka.
      OUTBOX_RELAY_ENABLED: 'false',
      // With no relay the outbox never drains, so the door (on by default) rightly refuses every
      // POST once the oldest row is older than LOAD_SHED_OUTBOX_AGE_MAX_MS (5 s): a slow run of this
      // file would get 503s. Off, as in every test stack; the door has its own suites.
      LOAD_SHED_ENABLED: 'false',
    });
    await migrateDatabase(createOrdersDataSource(config), serverUrl, database);
    await seedPrices(serverUrl, database, { 'SKU-ATOM': 150 });
    app = await NestFactory.create<NestFastifyApplication>(OrdersAppModule.forRoot(config), new FastifyAdapter(), { logger: false });
    configureHttpApp(app, { bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES, docs: ordersApiDocs });
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterEach(async () => {
    for (const { table, name } of constraints.splice(0)) {
      await queryTestDatabase(serverUrl, database, `ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
    }
  });

  afterAll(async () => {
    await app?.close();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when an order is placed with a new Idempotency-Key, then it costs three round trips to Postgres: the key read, BEGIN with the order, and the outbox row and the key with the COMMIT', async () => {
    const trips = roundTripCounter(app.get(TransactionContext).dataSource);
    // The first requests on a connection parse its statements; from then on they are held and pipelined.
    for (let n = 0; n < 5; n += 1) expect((await post({ 'Idempotency-Key': randomUUID() })).status).toBe(201);
    const counts: number[] = [];
    for (let n = 0; n < 3; n += 1) {
      trips.reset();
      expect((await post({ 'Idempotency-Key': randomUUID() })).status).toBe(201);
      counts.push(trips.count);
    }
    expect(Math.min(...counts)).toBe(3);
  });

  it('when orders are placed one after another, then their ids are time-ordered UUIDs (version 7), each minted no earlier than the one before', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push((await post({ 'Idempotency-Key': randomUUID() })).body.id as string);

    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The first 48 bits are the millisecond: the orders' primary key grows at one end.
    const minted = ids.map((id) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16));
    expect(minted).toEqual([...minted].sort((a, b) => a - b));
  });

  it('when the outbox insert fails inside the transaction, then the answer is 5xx and neither the order, its items nor an outbox row exist', async () => {
    const before = await count();
    await breakTable('outbox_messages', 'false');

    const response = await post();

    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.status).toBeLessThan(600);
    expect(await count()).toEqual(before);
  });

  it('when the outbox insert fails for a request with an Idempotency-Key, then the key is released too and a retry after the fault succeeds', async () => {
    const key = uniqueName('atomicity-key');
    const before = await count();
    await breakTable('outbox_messages', 'false');

    expect((await post({ 'Idempotency-Key': key })).status).toBeGreaterThanOrEqual(500);
    expect(await count()).toEqual(before);

    for (const { table, name } of constraints.splice(0)) {
      await queryTestDatabase(serverUrl, database, `ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
    }
    const retry = await post({ 'Idempotency-Key': key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await count()).toEqual({
      orders: before.orders + 1,
      order_items: before.order_items + 1,
      outbox_messages: before.outbox_messages + 1,
      idempotency_keys: before.idempotency_keys + 1,
    });
  });

  it('when storing the idempotent response fails after the order was written, then the order and its event roll back with it', async () => {
    const before = await count();
    // The key is stored with the response, after the order and its event: any real response violates this check.
    await breakTable('idempotency_keys', "response_body::text = 'null'");

    expect((await post({ 'Idempotency-Key': uniqueName('atomicity-key') })).status).toBeGreaterThanOrEqual(500);
    expect(await count()).toEqual(before);
  });

  it('when the outbox insert of a cancel fails, then the order stays PENDING and no OrderCancelled exists', async () => {
    const created = await post();
    expect(created.status).toBe(201);
    const before = await count();
    await breakTable('outbox_messages', 'false');

    const cancel = await requestJson('POST', `${baseUrl}/orders/${created.body.id}/cancel`, { token: await customerToken(CUSTOMER) });

    expect(cancel.status).toBeGreaterThanOrEqual(500);
    expect(await count()).toEqual(before);
    const [order] = await queryTestDatabase<{ status: string }>(serverUrl, database, 'SELECT status FROM orders WHERE id = $1', [
      created.body.id,
    ]);
    expect(order.status).toBe('PENDING');
  });

  it('when requests with the same Idempotency-Key race, then all get the same order and exactly one order exists', async () => {
    const key = uniqueName('atomicity-race');
    const before = await count();

    const responses = await Promise.all(Array.from({ length: 6 }, () => post({ 'Idempotency-Key': key })));

    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(201));
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(await count()).toEqual({
      orders: before.orders + 1,
      order_items: before.order_items + 1,
      outbox_messages: before.outbox_messages + 1,
      idempotency_keys: before.idempotency_keys + 1,
    });
  });

  it('when two customers send the same Idempotency-Key, then each gets an order of their own: keys are scoped by caller', async () => {
    const key = uniqueName('atomicity-shared-key');
    const before = await count();

    const first = await post({ 'Idempotency-Key': key }, body, 'key-owner-a');
    const second = await post({ 'Idempotency-Key': key }, body, 'key-owner-b');

    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
    expect([first.body.customerId, second.body.customerId]).toEqual(['key-owner-a', 'key-owner-b']);
    expect((await count()).idempotency_keys).toBe(before.idempotency_keys + 2);
  });

  it('when the app would write an OrderCreated its consumers refuse, then its OutboxWriter throws naming the type and field and the transaction writes nothing', async () => {
    const before = await count();
    const writer = app.get(OutboxWriter);
    const tx = app.get(TransactionContext);
    const orderId = randomUUID();
    // What inventory's inbox would dead-letter: 1,200 units of one SKU over two lines.
    const payload = {
      orderId,
      customerId: 'contract',
      items: [
        { sku: 'SKU-A', quantity: 600, unitPriceCents: 1 },
        { sku: 'SKU-A', quantity: 600, unitPriceCents: 1 },
      ],
      totalCents: 1200,
      createdAt: new Date().toISOString(),
    };

    const attempt = tx.run(() => writer.add(orderEvent(OrderEvents.OrderCreated, orderId, payload)));

    await expect(attempt).rejects.toThrow(OutboxEventRejectedError);
    await expect(tx.run(() => writer.add(orderEvent(OrderEvents.OrderCreated, orderId, payload)))).rejects.toThrow(
      /OrderCreated .* violates its contract: payload\.items hold 1200 units of SKU-A/,
    );
    expect(await count()).toEqual(before);
  });
});
