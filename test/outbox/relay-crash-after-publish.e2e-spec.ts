import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { Headers } from '@libs/envelope';
import { outboxRowsOf, testInfrastructure, TestServices, waitForOutboxDrained } from '@test/fixtures';
import { type TopicRecorder } from '@tools/local-stack';
import { placeOrderAndCrashRelay } from '../support/relay-crash.js';
import { RelayFailpoints } from '@libs/outbox';

const { serverUrl } = testInfrastructure();
const FAILPOINT = RelayFailpoints.afterPublishBeforeMark;

/**
 * Crash window: Kafka acknowledged the batch, the relay dies before marking the rows published.
 * The rows are still pending, so a restarted relay publishes them AGAIN: at-least-once. What makes
 * that safe is the stable message-id (the outbox row id) consumers deduplicate on.
 */
describe(`relay killed after the broker's ack, before marking (${FAILPOINT})`, () => {
  const services = new TestServices();
  let database: string;
  let recorder: TopicRecorder;

  beforeAll(async () => {
    database = await services.createDatabase('outbox_crash_mark');
    recorder = await services.recordTopic(Topics.orders);
  });

  afterAll(() => services.tearDown());

  it('when the relay is SIGKILLed after the ack, then after a restart the event is on the topic twice with the same message-id', async () => {
    const { orderId, relay } = await placeOrderAndCrashRelay(
      services,
      database,
      FAILPOINT,
      {
        customerId: 'crash-mark',
        items: [{ sku: 'SKU-MARK', quantity: 1 }],
      },
      { 'SKU-MARK': 999 },
    );

    // Acknowledged by Kafka, yet still pending in the database: the window this test is about.
    const [pending] = await outboxRowsOf(serverUrl, database, orderId);
    expect(pending.published_at).toBeNull();
    await recorder.waitForKey(orderId, { timeoutMs: 15_000, description: `the first copy of ${orderId}'s OrderCreated` });

    // Same database, no failpoint; a fresh consumer group, so the dead member's session does not delay start-up.
    await relay.restart({ freshConsumerGroup: true });

    const [first, second] = await recorder.waitForKey(orderId, {
      copies: 2,
      timeoutMs: 30_000,
      description: `the second copy of ${orderId}'s OrderCreated`,
    });
    await waitForOutboxDrained(serverUrl, database, {
      aggregateId: orderId,
      timeoutMs: 15_000,
      description: `outbox row of ${orderId} marked published`,
    });

    expect(first.headers[Headers.messageId]).toBe(pending.id);
    expect(second.headers[Headers.messageId]).toBe(pending.id);
    // Same key, so same partition, and the copy comes after the original.
    expect(second.partition).toBe(first.partition);
    expect(second.offset).toBeGreaterThan(first.offset);
    expect(second.text).toBe(first.text);
    expect(second.headers).toEqual(first.headers);
  });
});
