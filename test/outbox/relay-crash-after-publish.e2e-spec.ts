import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Headers, Topics } from '@app/contracts';
import type { FailpointName } from '@app/failpoints';
import {
  createTestDatabase,
  dropTestDatabase,
  localEnvironment,
  queryTestDatabase,
  requestJson,
  ServiceProcess,
  TopicRecorder,
  topicEndOffsets,
  waitFor,
} from '@app/testing';

const env = localEnvironment();
const serverUrl = env.DATABASE_URL!;
const brokers = env.KAFKA_BROKERS!.split(',');
const FAILPOINT: FailpointName = 'relay.after-publish-before-mark';

interface OutboxRow {
  id: string;
  published_at: Date | null;
}

/**
 * Crash window: Kafka acknowledged the batch, the relay dies before marking the rows published.
 * The rows are still pending, so a restarted relay publishes them AGAIN: at-least-once. What makes
 * that safe is the stable message-id (the outbox row id) consumers deduplicate on.
 */
describe(`relay killed after the broker's ack, before marking (${FAILPOINT})`, () => {
  let database: string;
  const processes: ServiceProcess[] = [];
  let recorder: TopicRecorder | undefined;

  const outboxRows = (orderId: string) =>
    queryTestDatabase<OutboxRow & Record<string, unknown>>(
      serverUrl,
      database,
      'SELECT id, published_at FROM outbox_messages WHERE aggregate_id = $1 ORDER BY seq',
      [orderId],
    );

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_crash_mark');
    recorder = await TopicRecorder.start({ brokers, topic: Topics.orders, from: await topicEndOffsets(brokers, Topics.orders) });
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await recorder?.stop();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when the relay is SIGKILLed after the ack, then after a restart the event is on the topic twice with the same message-id', async () => {
    const writer = await ServiceProcess.start({ service: 'orders', name: 'orders-writer', serverUrl, database, brokers, env: { OUTBOX_RELAY_ENABLED: 'false' } });
    processes.push(writer);
    const doomed = await ServiceProcess.start({ service: 'orders', name: 'relay-doomed', serverUrl, database, brokers, failpoints: [FAILPOINT] });
    processes.push(doomed);

    const created = await requestJson('POST', `${writer.baseUrl}/orders`, {
      body: { customerId: 'crash-mark', items: [{ sku: 'SKU-MARK', quantity: 1, unitPriceCents: 999 }] },
    });
    expect(created.status).toBe(201);
    const orderId: string = created.body.id;

    await doomed.waitForFailpoint(FAILPOINT, 30_000);

    // Acknowledged by Kafka, yet still pending in the database: the window this test is about.
    const [pending] = await outboxRows(orderId);
    expect(pending.published_at).toBeNull();
    await recorder!.waitUntil((all) => all.some((message) => message.key === orderId), {
      timeoutMs: 15_000,
      description: `the first copy of ${orderId}'s OrderCreated`,
    });

    // Same database, no failpoint; a fresh consumer group, so the dead member's session does not delay start-up.
    await doomed.restart({ freshConsumerGroup: true });

    const messages = await recorder!.waitUntil((all) => all.filter((message) => message.key === orderId).length >= 2, {
      timeoutMs: 30_000,
      description: `the second copy of ${orderId}'s OrderCreated`,
    });
    await waitFor(async () => (await outboxRows(orderId)).every((row) => row.published_at !== null), {
      timeoutMs: 15_000,
      description: `outbox row of ${orderId} marked published`,
    });

    const [first, second] = messages.filter((message) => message.key === orderId);
    expect(first.headers[Headers.messageId]).toBe(pending.id);
    expect(second.headers[Headers.messageId]).toBe(pending.id);
    // Same key, so same partition, and the copy comes after the original.
    expect(second.partition).toBe(first.partition);
    expect(second.offset).toBeGreaterThan(first.offset);
    expect(second.text).toBe(first.text);
    expect(second.headers).toEqual(first.headers);
  });
});
