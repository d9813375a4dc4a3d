import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { countRows, customerToken, seedPrices, testInfrastructure, TestServices, waitForOutboxDrained } from '@test/fixtures';
import { queryTestDatabase, requestJson, type TopicRecorder, uniqueName } from '@tools/local-stack';
import { OrdersFailpoints } from '@apps/orders';

const { serverUrl } = testInfrastructure();
const FAILPOINT = OrdersFailpoints.afterCommitBeforeResponse;
const TABLES = ['orders', 'order_items', 'outbox_messages', 'idempotency_keys'] as const;

/**
 * Crash window: the order, its outbox row and the idempotency key are committed, the process dies
 * before the 201 leaves. The client saw only a broken connection; its retry with the same key must
 * return the order that exists, not create a second one.
 */
describe(`orders killed after commit, before the response (${FAILPOINT})`, () => {
  const services = new TestServices();
  let database: string;
  let recorder: TopicRecorder;

  beforeAll(async () => {
    database = await services.createDatabase('outbox_crash_response');
    recorder = await services.recordTopic(Topics.orders);
  });

  afterAll(() => services.tearDown());

  it('when the client retries with the same Idempotency-Key after a restart, then it gets the same order and exactly one order and one outbox row exist', async () => {
    const key = uniqueName('crash-response-key');
    const token = await customerToken('crash-response');
    const body = {
      items: [
        { sku: 'SKU-RESP', quantity: 3 },
        { sku: 'SKU-RESP-2', quantity: 1 },
      ],
    };
    const doomed = await services.start({ service: 'orders', name: 'orders-doomed', database, failpoints: [FAILPOINT] });
    await seedPrices(serverUrl, database, { 'SKU-RESP': 100, 'SKU-RESP-2': 5 });

    // The connection breaks instead of a response: fetch rejects.
    await expect(requestJson('POST', `${doomed.baseUrl}/orders`, { body, headers: { 'Idempotency-Key': key }, token })).rejects.toThrow();
    await doomed.waitForFailpoint(FAILPOINT, 30_000);

    // Everything was committed before the kill.
    expect(await countRows(serverUrl, database, TABLES)).toEqual({ orders: 1, order_items: 2, outbox_messages: 1, idempotency_keys: 1 });
    const [{ id: orderId }] = await queryTestDatabase<{ id: string }>(serverUrl, database, 'SELECT id FROM orders');

    // Same port, same database, no failpoint: the client retries where it sent the request.
    await doomed.restart({ freshConsumerGroup: true });
    const retry = await requestJson('POST', `${doomed.baseUrl}/orders`, { body, headers: { 'Idempotency-Key': key }, token });

    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toMatchObject({ id: orderId, customerId: 'crash-response', status: 'PENDING', totalCents: 305 });
    expect(await countRows(serverUrl, database, TABLES)).toEqual({ orders: 1, order_items: 2, outbox_messages: 1, idempotency_keys: 1 });

    // The one event of that one order still goes out.
    const [outbox] = await queryTestDatabase<{ id: string }>(serverUrl, database, 'SELECT id FROM outbox_messages');
    const [event] = await recorder.waitForKey(orderId, { timeoutMs: 30_000, description: `OrderCreated of ${orderId}` });
    expect(event.headers[Headers.messageId]).toBe(outbox.id);
    await waitForOutboxDrained(serverUrl, database, { timeoutMs: 15_000, description: 'the outbox row marked published' });
    expect((await countRows(serverUrl, database, TABLES)).outbox_messages).toBe(1);
  });
});
