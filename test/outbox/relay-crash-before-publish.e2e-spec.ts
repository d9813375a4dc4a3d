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
const FAILPOINT: FailpointName = 'relay.after-claim-before-publish';

interface OutboxRow {
  id: string;
  published_at: Date | null;
}

/**
 * Crash window: the relay has read (claimed) committed rows and dies before sending them.
 * Nothing was published and nothing was marked, so a restarted relay must publish the row.
 */
describe(`relay killed after claim, before publish (${FAILPOINT})`, () => {
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
    database = await createTestDatabase(serverUrl, 'outbox_crash_claim');
    recorder = await TopicRecorder.start({ brokers, topic: Topics.orders, from: await topicEndOffsets(brokers, Topics.orders) });
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await recorder?.stop();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when the relay is SIGKILLed before publishing, then after a restart the event reaches Kafka with key = order id and message-id = outbox row id', async () => {
    // The HTTP side writes only; the relay runs in its own process, the one that gets killed.
    const writer = await ServiceProcess.start({ service: 'orders', name: 'orders-writer', serverUrl, database, brokers, env: { OUTBOX_RELAY_ENABLED: 'false' } });
    processes.push(writer);
    const doomed = await ServiceProcess.start({ service: 'orders', name: 'relay-doomed', serverUrl, database, brokers, failpoints: [FAILPOINT] });
    processes.push(doomed);

    const created = await requestJson('POST', `${writer.baseUrl}/orders`, {
      body: { customerId: 'crash-claim', items: [{ sku: 'SKU-CLAIM', quantity: 2, unitPriceCents: 250 }] },
    });
    expect(created.status).toBe(201);
    const orderId: string = created.body.id;

    // The NOTIFY of that commit wakes the relay, which claims the row and dies.
    await doomed.waitForFailpoint(FAILPOINT, 30_000);

    const [pending] = await outboxRows(orderId);
    expect(pending.published_at).toBeNull();

    // Same database, no failpoint; a fresh consumer group, so the dead member's session does not delay start-up.
    await doomed.restart({ freshConsumerGroup: true });

    const messages = await recorder!.waitUntil((all) => all.some((message) => message.key === orderId), {
      timeoutMs: 30_000,
      description: `OrderCreated of ${orderId} on ${Topics.orders}`,
    });
    const published = await waitFor(async () => {
      const rows = await outboxRows(orderId);
      return rows.every((row) => row.published_at !== null) && rows;
    }, { timeoutMs: 15_000, description: `outbox row of ${orderId} marked published` });

    expect(published).toHaveLength(1);
    const copies = messages.filter((message) => message.key === orderId);
    // The killed relay never sent it: the restarted one is the first and only publisher.
    expect(copies).toHaveLength(1);
    expect(copies[0].headers[Headers.messageId]).toBe(published[0].id);
    expect(copies[0].headers[Headers.messageType]).toBe('OrderCreated');
    expect(copies[0].headers[Headers.aggregateId]).toBe(orderId);
    expect(copies[0].value).toMatchObject({ orderId, customerId: 'crash-claim', totalCents: 500 });
  });
});
