import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { customerToken, eventRecord, jsonLines, orderCreatedPayload, publishRecords, seedPrices, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { requestJson, type ServiceProcess, type TopicRecorder, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { CountingProxy } from '../support/counting-proxy.js';
import { FAST_LOYALTY_DISPATCH } from '../support/inventory-with-loyalty.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';

/**
 * A request that arrives with a `traceparent` keeps its trace id through the
 * outbox, Kafka, inventory's inbox and outbox, the loyalty call and back to orders; and the spans
 * the three real processes export over OTLP (to a receiver in this test) form one tree.
 */
const sku = `${uniqueSku('TRACE')}-A`;

describe('one trace per order across orders, inventory and loyalty', () => {
  const services = new TestServices();
  let receiver: OtlpReceiver;
  let proxy: CountingProxy;
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let loyalty: ServiceProcess;
  let orderRecords: TopicRecorder;
  let answerRecords: TopicRecorder;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    const telemetry = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, LOG_FORMAT: 'json', LOG_LEVEL: 'info' };
    loyalty = await services.start({ service: 'loyalty', database: await services.createDatabase('trace_loyalty'), env: telemetry });
    proxy = await CountingProxy.start(loyalty.baseUrl);
    inventory = await services.start({
      service: 'inventory',
      database: await services.createDatabase('trace_inventory'),
      env: { ...telemetry, ...FAST_LOYALTY_DISPATCH, LOYALTY_BASE_URL: proxy.url },
    });
    const ordersDatabase = await services.createDatabase('trace_orders');
    orders = await services.start({
      service: 'orders',
      database: ordersDatabase,
      env: { ...telemetry, INBOX_MAX_ATTEMPTS: '2', INBOX_RETRY_BASE_MS: '10' },
    });
    await seedPrices(testInfrastructure().serverUrl, ordersDatabase, { [sku]: 1500 });
    orderRecords = await services.recordTopic(Topics.orders);
    answerRecords = await services.recordTopic(Topics.reservations);
    await setStock(inventory.baseUrl, sku, 10);
  });

  afterAll(async () => {
    await services.tearDown();
    await proxy?.stop();
    await receiver?.stop();
  });

  it('when POST /orders carries a traceparent, then every record, the loyalty call and the spans of all three services share its trace id in one tree', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const customerId = uniqueName('trace-customer');
    const token = await customerToken(customerId);
    const created = await requestJson('POST', `${orders.baseUrl}/orders`, {
      body: { items: [{ sku, quantity: 2 }] },
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
      token,
    });
    expect(created.status).toBe(201);
    const orderId = created.body.id as string;

    await waitFor(async () => (await requestJson('GET', `${orders.baseUrl}/orders/${orderId}`, { token })).body.status === 'RESERVED', {
      timeoutMs: 60_000,
      description: `order ${orderId} to be RESERVED`,
    });

    // Kafka: the OrderCreated record and inventory's answer carry the caller's trace id.
    const [orderCreated] = await orderRecords.waitForKey(orderId);
    const [answer] = await answerRecords.waitForKey(orderId);
    expect(orderCreated.headers[Headers.traceparent]).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(answer.headers[Headers.traceparent]).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    // Loyalty: the request it received carries it too.
    const loyaltyTraceparent = await waitFor(() => proxy.traceparentPerKey.get(`loyalty-accrual:${orderId}`), {
      timeoutMs: 30_000,
      description: 'loyalty to receive the accrual',
    });
    expect(loyaltyTraceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    // Spans: the orders HTTP span is the only child of the caller's span; every other span's
    // parent is a span of the same trace; all three services took part.
    const expected = [
      ['orders', 'POST /orders'],
      ['orders', `${Topics.orders} publish`],
      ['inventory', `${Topics.orders} process`],
      ['inventory', `${Topics.reservations} publish`],
      ['inventory', 'POST /accruals'],
      ['loyalty', 'POST /accruals'],
      ['orders', `${Topics.reservations} process`],
    ];
    const spans = await waitFor(
      () => {
        const received = receiver.trace(traceId);
        return expected.every(([service, name]) => received.some((span) => span.service === service && span.name === name)) ? received : undefined;
      },
      { timeoutMs: 30_000, description: `spans ${JSON.stringify(expected)} of trace ${traceId}` },
    );
    const ids = new Set(spans.map((span) => span.spanId));
    const roots = spans.filter((span) => span.parentSpanId === callerSpanId);
    expect(roots.map((span) => `${span.service} ${span.name}`)).toEqual(['orders POST /orders']);
    const orphans = spans.filter((span) => span.parentSpanId !== callerSpanId && !ids.has(span.parentSpanId ?? ''));
    expect(orphans).toEqual([]);
    const byName = (service: string, name: string) => spans.find((span) => span.service === service && span.name === name)!;
    const chain: [ReceivedSpan, ReceivedSpan][] = [
      [byName('orders', `${Topics.orders} publish`), byName('orders', 'POST /orders')],
      [byName('inventory', `${Topics.orders} process`), byName('orders', `${Topics.orders} publish`)],
      [byName('inventory', `${Topics.reservations} publish`), byName('inventory', `${Topics.orders} process`)],
      [byName('inventory', 'POST /accruals'), byName('inventory', `${Topics.orders} process`)],
      [byName('loyalty', 'POST /accruals'), byName('inventory', 'POST /accruals')],
      [byName('orders', `${Topics.reservations} process`), byName('inventory', `${Topics.reservations} publish`)],
    ];
    for (const [child, parent] of chain) expect(`${child.service} ${child.name} <- ${child.parentSpanId}`).toBe(`${child.service} ${child.name} <- ${parent.spanId}`);

    // Logs: one JSON line per request and per handled message, with the ids that exist.
    const orderLines = jsonLines(orders.process.logs);
    expect(orderLines).toContainEqual(expect.objectContaining({ msg: 'http request', method: 'POST', route: '/orders', status: 201, orderId, traceId }));
    expect(orderLines).toContainEqual(
      expect.objectContaining({ msg: 'message handled', outcome: 'processed', orderId, traceId, messageId: answer.headers[Headers.messageId], correlationId: orderId }),
    );
    expect(jsonLines(inventory.process.logs)).toContainEqual(
      expect.objectContaining({ msg: 'message handled', outcome: 'processed', orderId, traceId, messageId: orderCreated.headers[Headers.messageId], correlationId: orderId }),
    );
    expect(jsonLines(loyalty.process.logs)).toContainEqual(expect.objectContaining({ msg: 'http request', route: '/accruals', status: 201, orderId, traceId }));
  });

  it('when inventory takes a backlog as one batch transaction, then each message still gets its own consumer span continuing its record\'s trace, a log line with its trace id, and the batch span links them', async () => {
    const { brokers } = testInfrastructure();
    const messages = Array.from({ length: 4 }, (_, n) => {
      const traceId = randomBytes(16).toString('hex');
      const spanId = randomBytes(8).toString('hex');
      const payload = orderCreatedPayload(uniqueName('trace-batch-customer'), [{ sku, quantity: 1, unitPriceCents: 100 + n }]);
      // One partition (chosen, not a shared key: that would be AGGREGATE_MISMATCH), so the backlog reaches one eachBatch call.
      const record = eventRecord(Topics.orders, 'OrderCreated', payload, { headers: { [Headers.traceparent]: `00-${traceId}-${spanId}-01` } });
      return { traceId, spanId, payload, record: { ...record, partition: 0 } };
    });
    await inventory.stop();
    await publishRecords(brokers, Topics.orders, messages.map(({ record }) => record));
    await inventory.restart();

    const handled = await waitFor(
      () => {
        const lines = jsonLines(inventory.process.logs).filter((line) => line.msg === 'message handled' && line.outcome === 'processed');
        const found = messages.map(({ record }) => lines.find((line) => line.messageId === record.headers![Headers.messageId]));
        return found.every(Boolean) ? found : undefined;
      },
      { timeoutMs: 60_000, description: 'a "message handled" line for each backlog message' },
    );
    messages.forEach(({ traceId, payload }, n) => expect(handled[n]).toMatchObject({ traceId, orderId: payload.orderId, consumer: 'inventory.order-events' }));

    const processSpans = await waitFor(
      () => {
        const found = messages.map(({ traceId }) => receiver.trace(traceId).find((span) => span.service === 'inventory' && span.name === `${Topics.orders} process`));
        return found.every(Boolean) ? (found as ReceivedSpan[]) : undefined;
      },
      { timeoutMs: 30_000, description: 'an inventory consumer span in each record\'s trace' },
    );
    messages.forEach(({ spanId }, n) => expect(processSpans[n].parentSpanId).toBe(spanId));
    const batchSpan = await waitFor(
      () =>
        receiver.spans.find(
          (span) =>
            span.service === 'inventory' &&
            span.name === `${Topics.orders} process batch` &&
            span.links.filter((link) => processSpans.some((one) => one.spanId === link.spanId)).length > 1,
        ),
      { timeoutMs: 30_000, description: 'a batch span linked to several of the message spans' },
    );
    expect(batchSpan.links.every((link) => receiver.spans.some((span) => span.spanId === link.spanId))).toBe(true);

    // Their answers continue each message's own trace.
    for (const { traceId, payload } of messages) {
      const [answer] = await answerRecords.waitForKey(payload.orderId);
      expect(answer.headers[Headers.traceparent]).toMatch(new RegExp(`^00-${traceId}-`));
    }
  });
});
