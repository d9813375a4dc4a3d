import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { outboxRowsOf, testInfrastructure, TestServices, waitForOutboxDrained } from '@test/fixtures';
import { type TopicRecorder } from '@tools/local-stack';
import { placeOrderAndCrashRelay } from '../support/relay-crash.js';
import { RelayFailpoints } from '@libs/outbox';

const { serverUrl } = testInfrastructure();
const FAILPOINT = RelayFailpoints.afterClaimBeforePublish;

/**
 * Crash window: the relay has read (claimed) committed rows and dies before sending them.
 * Nothing was published and nothing was marked, so a restarted relay must publish the row.
 */
describe(`relay killed after claim, before publish (${FAILPOINT})`, () => {
  const services = new TestServices();
  let database: string;
  let recorder: TopicRecorder;

  beforeAll(async () => {
    database = await services.createDatabase('outbox_crash_claim');
    recorder = await services.recordTopic(Topics.orders);
  });

  afterAll(() => services.tearDown());

  it('when the relay is SIGKILLed before publishing, then after a restart the event reaches Kafka with key = order id and message-id = outbox row id', async () => {
    // The relay claims the new order's row and dies before sending it.
    const { orderId, relay } = await placeOrderAndCrashRelay(
      services,
      database,
      FAILPOINT,
      {
        customerId: 'crash-claim',
        items: [{ sku: 'SKU-CLAIM', quantity: 2 }],
      },
      { 'SKU-CLAIM': 250 },
    );

    const [pending] = await outboxRowsOf(serverUrl, database, orderId);
    expect(pending.published_at).toBeNull();

    // Same database, no failpoint; a fresh consumer group, so the dead member's session does not delay start-up.
    await relay.restart({ freshConsumerGroup: true });

    const copies = await recorder.waitForKey(orderId, { timeoutMs: 30_000, description: `OrderCreated of ${orderId} on ${Topics.orders}` });
    await waitForOutboxDrained(serverUrl, database, {
      aggregateId: orderId,
      timeoutMs: 15_000,
      description: `outbox row of ${orderId} marked published`,
    });
    const published = await outboxRowsOf(serverUrl, database, orderId);

    expect(published).toHaveLength(1);
    // The killed relay never sent it: the restarted one is the first and only publisher.
    expect(copies).toHaveLength(1);
    expect(copies[0].headers[Headers.messageId]).toBe(published[0].id);
    expect(copies[0].headers[Headers.messageType]).toBe('OrderCreated');
    expect(copies[0].headers[Headers.aggregateId]).toBe(orderId);
    expect(copies[0].value).toMatchObject({ orderId, customerId: 'crash-claim', totalCents: 500 });
  });
});
