import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type StockReserved, Topics } from '@libs/contracts';
import { DeadLetterHeaders, deadLetterTopic, Headers } from '@libs/envelope';
import { createKafka, ensureTopics } from '@libs/kafka';
import {
  eventRecord,
  getOrder,
  orderCreatedPayload,
  publishRecords,
  type RecordPosition,
  serviceSigningKey,
  TestServices,
  waitForDeadLetter,
} from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, topicEndOffsets, TopicRecorder, uniqueName, waitFor } from '@tools/local-stack';
import { runOps } from '../support/run-ops.js';

/**
 * `npm run ops -- dlq ...` against the real broker: a StockReserved for an order orders does not
 * know is dead-lettered by the real orders process; the operator lists and shows it, creates the
 * missing order (the "fix"), replays the dead letter to its original topic with its message id,
 * and orders then applies it. A second case replays a whole dead-letter topic of its own.
 */
describe('npm run ops -- dlq (real broker, real orders process)', () => {
  const services = new TestServices();
  const { infrastructure } = services;
  let orders: ServiceProcess;
  let database: string;
  let deadLetters: TopicRecorder;
  const orderId = randomUUID();
  const messageId = randomUUID();
  let position: RecordPosition;
  let dlqPosition: string;

  beforeAll(async () => {
    database = await services.createDatabase('ops_dlq_orders');
    // One attempt: the dead letter appears at once instead of after five backed-off retries.
    orders = await services.start({ service: 'orders', database, env: { INBOX_MAX_ATTEMPTS: '1' } });
    deadLetters = await services.recordTopic(deadLetterTopic(Topics.reservations));
    const payload: StockReserved = { orderId, items: [{ sku: 'SKU-OPS', quantity: 1 }], reservedAt: new Date().toISOString() };
    [position] = await publishRecords(infrastructure.brokers, Topics.reservations, [
      eventRecord(Topics.reservations, 'StockReserved', payload, { messageId }),
    ]);
    const letter = await waitForDeadLetter(deadLetters, Topics.reservations, position!, { timeoutMs: 60_000 });
    dlqPosition = `${deadLetterTopic(Topics.reservations)}:${letter.partition}:${letter.offset}`;
  });

  afterAll(() => services.tearDown());

  it('when dlq list runs, then it shows the dead letter with its reason, origin and message id', async () => {
    const run = await runOps(infrastructure, ['dlq', 'list', '--topic', Topics.reservations]);
    expect(run).toMatchObject({ code: 0 });
    const block = run.stdout.split(/\n(?=\S)/).find((entry) => entry.startsWith(`${dlqPosition}\n`));
    expect(block).toContain(`StockReserved ${messageId}`);
    expect(block).toContain('reason: HANDLER_FAILED after 1 attempt(s)');
    expect(block).toContain(`from:   ${Topics.reservations}:${position.partition}:${position.offset}`);
    expect(run.stdout).toMatch(/\d+ dead letter\(s\) in 1 topic\(s\): inventory\.reservation\.v1\.dlq/);
  });

  it('when a dlq list filter matches nothing, then it says 0 and exits 1 (as the docs say, like grep); matching, it exits 0', async () => {
    const none = await runOps(infrastructure, ['dlq', 'list', '--topic', Topics.reservations, '--reason', 'NO_SUCH_REASON']);
    expect(none).toMatchObject({ code: 1 });
    expect(none.stdout).toMatch(/^0 dead letter\(s\) in 1 topic\(s\)/m);
    const some = await runOps(infrastructure, ['dlq', 'list', '--topic', Topics.reservations, '--reason', 'HANDLER_FAILED']);
    expect(some).toMatchObject({ code: 0 });
    expect(some.stdout).toContain(`StockReserved ${messageId}`);
  });

  it('when dlq show is given the message id or the original position, then it prints the error, headers and value', async () => {
    for (const reference of [messageId, `${Topics.reservations}:${position.partition}:${position.offset}`, dlqPosition]) {
      const run = await runOps(infrastructure, ['dlq', 'show', reference]);
      expect({ reference, code: run.code }).toEqual({ reference, code: 0 });
      expect(run.stdout).toContain(`${DeadLetterHeaders.reason}: HANDLER_FAILED`);
      expect(run.stdout).toContain(`${Headers.messageId}: ${messageId}`);
      expect(run.stdout).toContain(`"orderId": "${orderId}"`);
      expect(run.stdout).toContain('error (full):');
    }
  });

  it('when dlq show finds nothing, then it says so and exits 1', async () => {
    const run = await runOps(infrastructure, ['dlq', 'show', randomUUID()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^no dead letter matches /m);
  });

  it('when the cause is fixed and the dead letter replayed, then orders applies it, under the same message id', async () => {
    // The fix: the order the answer was for now exists (as if its creation had been restored).
    await queryTestDatabase(
      infrastructure.serverUrl,
      database,
      "INSERT INTO orders (id, customer_id, status, total_cents) VALUES ($1, 'ops-customer', 'PENDING', 100)",
      [orderId],
    );
    await queryTestDatabase(
      infrastructure.serverUrl,
      database,
      "INSERT INTO order_items (order_id, line_no, sku, quantity, unit_price_cents) VALUES ($1, 1, 'SKU-OPS', 1, 100)",
      [orderId],
    );
    const answers = await services.recordTopic(Topics.reservations);

    const [partition, offset] = dlqPosition.split(':').slice(-2);
    const run = await runOps(infrastructure, ['dlq', 'replay', Topics.reservations, '--partition', partition, '--offset', offset]);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain(`replayed ${dlqPosition} (StockReserved ${messageId}) to ${Topics.reservations}:`);

    const replayed = await answers.waitUntil((all) => all.some((m) => m.headers[Headers.messageId] === messageId), {
      timeoutMs: 30_000,
      description: 'the replayed record on the original topic',
    });
    expect(replayed).toBeDefined();
    const order = await waitFor(
      async () => {
        const { body } = await getOrder(orders.baseUrl, orderId, 'ops-customer');
        return body?.status === 'RESERVED' ? body : undefined;
      },
      { timeoutMs: 60_000, description: `order ${orderId} to be RESERVED by the replayed answer` },
    );
    expect(order.status).toBe('RESERVED');
  });

  it('when dlq replay --all runs with filters, then only the valid dead letters in range go back, to the topic the .dlq name gives (never the header), with key, value and message id and without dlq headers; invalid ones are reported, not sent', async () => {
    const dlq = deadLetterTopic(Topics.reservations);
    const rejected = (orderId: string, reason?: string) => ({
      orderId,
      reasonCode: 'INVENTORY.UNKNOWN_SKU',
      ...(reason === undefined ? {} : { reason }),
      rejectedAt: new Date().toISOString(),
    });
    // Signed for the topic they came from, as the relay signed them; the dlq-* headers are not signed.
    const signed = { signWith: serviceSigningKey('inventory') };
    const records = [
      eventRecord(Topics.reservations, 'StockRejected', rejected(randomUUID(), 'unknown SKU'), signed),
      eventRecord(Topics.reservations, 'StockRejected', rejected(randomUUID(), 'unknown SKU'), signed),
      // Invalid for the topic's consumers: no reason.
      eventRecord(Topics.reservations, 'StockRejected', rejected(randomUUID()), signed),
    ];
    const ids = records.map((record) => record.headers![Headers.messageId]);
    const answers = await services.recordTopic(Topics.reservations);
    const positions = await publishRecords(
      infrastructure.brokers,
      dlq,
      records.map((record, index) => ({
        ...record,
        partition: 0,
        headers: {
          ...record.headers,
          [DeadLetterHeaders.reason]: 'HANDLER_FAILED',
          [DeadLetterHeaders.error]: 'Error: boom',
          [DeadLetterHeaders.attempts]: '5',
          [DeadLetterHeaders.consumer]: 'example',
          // The first names another topic: a replay must not follow it.
          [DeadLetterHeaders.originalTopic]: index === 0 ? 'payments.refund.v1' : Topics.reservations,
          [DeadLetterHeaders.originalPartition]: '0',
          [DeadLetterHeaders.originalOffset]: String(index),
        },
      })),
    );
    const range = ['--all', '--partition', '0', '--from-offset', String(positions[0].offset), '--to-offset', String(positions[2].offset)];

    const dryRun = await runOps(infrastructure, ['dlq', 'replay', Topics.reservations, ...range, '--dry-run']);
    expect(dryRun.code).toBe(1);
    expect(dryRun.stdout).toContain(`dry run: 2 dead letter(s) would be replayed to ${Topics.reservations}, 1 invalid; nothing sent`);

    const run = await runOps(infrastructure, ['dlq', 'replay', Topics.reservations, ...range]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('2 dead letter(s) replayed, 1 invalid not sent');
    expect(run.stdout).toMatch(
      new RegExp(`invalid, not sent: ${dlq}:0:${positions[2].offset} ${ids[2]}: SCHEMA_VIOLATION: payload.reason`),
    );
    expect(run.stdout).toContain(`names payments.refund.v1 as its origin; it goes to ${Topics.reservations}`);

    const seen = await answers.waitUntil((all) => ids.slice(0, 2).every((id) => all.some((m) => m.headers[Headers.messageId] === id)), {
      timeoutMs: 30_000,
      description: 'the two valid dead letters on the original topic',
    });
    const copies = seen.filter((m) => ids.includes(m.headers[Headers.messageId]));
    // One copy each: the dry run sent nothing, the invalid one was not sent. By id: the two keys
    // may hash to different partitions, and Kafka orders records within a partition only.
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(copies.map((m) => ({ key: m.key, value: m.text, id: m.headers[Headers.messageId] })).sort(byId)).toEqual(
      records
        .slice(0, 2)
        .map((record, index) => ({ key: record.key, value: record.value, id: ids[index] }))
        .sort(byId),
    );
    expect(copies.flatMap((m) => Object.keys(m.headers).filter((name) => name.startsWith('dlq-')))).toEqual([]);
  });

  it('when dlq show meets control characters and binary in a dead letter, then it prints them escaped and as hex', async () => {
    // A real dead-letter topic: the ops principal may read those, and only those.
    const topic = Topics.reservations;
    const id = randomUUID();
    await publishRecords(infrastructure.brokers, deadLetterTopic(topic), [
      {
        key: 'k\u001b]0;pwned\u0007',
        value: Buffer.from([0x00, 0x9b, 0x32, 0x4a, 0xff]),
        headers: { [Headers.messageId]: id, [DeadLetterHeaders.reason]: 'NOT_JSON', [DeadLetterHeaders.error]: 'bad\u001b[2Jvalue' },
      },
    ]);
    const run = await runOps(infrastructure, ['dlq', 'show', id, '--topic', topic]);
    expect(run.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).toContain('key:    k\\u{001b}]0;pwned\\u{0007}');
    expect(run.stdout).toContain('bad\\u{001b}[2Jvalue');
    expect(run.stdout).toContain('(binary, 5 bytes) 009b324aff');
  });

  it('when a dead letter was changed after it was signed (its message id rewritten, or never signed), then dlq replay refuses it as SIGNATURE_INVALID', async () => {
    const dlq = deadLetterTopic(Topics.reservations);
    const genuine = eventRecord(
      Topics.reservations,
      'StockReserved',
      { orderId: randomUUID(), items: [{ sku: 'SKU-X', quantity: 1 }], reservedAt: new Date().toISOString() },
      { signWith: serviceSigningKey('inventory') },
    );
    const rewritten = { ...genuine, headers: { ...genuine.headers, [Headers.messageId]: randomUUID() } };
    const forged = eventRecord(Topics.reservations, 'StockReserved', JSON.parse(String(genuine.value)), { signWith: false });
    const positions = await publishRecords(
      infrastructure.brokers,
      dlq,
      [rewritten, forged].map((record) => ({ ...record, partition: 0 })),
    );
    const before = await topicEndOffsets(infrastructure.brokers, Topics.reservations);
    const run = await runOps(infrastructure, [
      'dlq',
      'replay',
      Topics.reservations,
      '--all',
      '--partition',
      '0',
      '--from-offset',
      String(positions[0].offset),
      '--to-offset',
      String(positions[1].offset),
    ]);
    expect(run.code).toBe(1);
    for (const position of positions)
      expect(run.stdout).toMatch(new RegExp(`invalid, not sent: ${dlq}:0:${position.offset} \\S+: SIGNATURE_INVALID`));
    expect(await topicEndOffsets(infrastructure.brokers, Topics.reservations)).toEqual(before);
  });

  it("when a compromised inventory plants an OrderCreated in orders' dead-letter topic, signed with its own key or unsigned, with made-up dead-letter headers, then dlq replay refuses both as SIGNATURE_INVALID naming orders and sends nothing", async () => {
    const dlq = deadLetterTopic(Topics.orders);
    // The topics inventory would have created: this test runs only orders.
    await ensureTopics(createKafka({ brokers: infrastructure.brokers, clientId: uniqueName('ops-test-topics') }), [Topics.orders, dlq], 3);
    const payload = orderCreatedPayload(uniqueName('victim'), [{ sku: 'SKU-OPS', quantity: 1, unitPriceCents: 100 }]);
    const madeUp = (index: number) => ({
      [DeadLetterHeaders.reason]: 'HANDLER_FAILED',
      [DeadLetterHeaders.error]: 'Error: lock timeout',
      [DeadLetterHeaders.attempts]: '5',
      [DeadLetterHeaders.consumer]: 'inventory.reservations',
      [DeadLetterHeaders.originalTopic]: Topics.orders,
      [DeadLetterHeaders.originalPartition]: '0',
      [DeadLetterHeaders.originalOffset]: String(index),
    });
    const byInventory = eventRecord(Topics.orders, 'OrderCreated', payload, { signWith: serviceSigningKey('inventory') });
    const unsigned = eventRecord(Topics.orders, 'OrderCreated', payload, { signWith: false });
    const positions = await publishRecords(
      infrastructure.brokers,
      dlq,
      [byInventory, unsigned].map((record, index) => ({ ...record, partition: 0, headers: { ...record.headers, ...madeUp(index) } })),
    );
    // Other suites may write orders.order.v1 meanwhile: what the replay must not have sent is found
    // by message id, in everything written to the topic from before the run to after it.
    const before = await topicEndOffsets(infrastructure.brokers, Topics.orders);
    const written = services.adopt(await TopicRecorder.start({ brokers: infrastructure.brokers, topic: Topics.orders, from: before }));
    const range = ['--all', '--partition', '0', '--from-offset', String(positions[0].offset), '--to-offset', String(positions[1].offset)];
    const run = await runOps(infrastructure, ['dlq', 'replay', Topics.orders, ...range]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('0 dead letter(s) replayed, 2 invalid not sent');
    expect(run.stdout).toMatch(
      new RegExp(
        `invalid, not sent: ${dlq}:0:${positions[0].offset} \\S+: SIGNATURE_INVALID: signed with key "[^"]+" of inventory, but OrderCreated is produced by orders only`,
      ),
    );
    expect(run.stdout).toMatch(new RegExp(`invalid, not sent: ${dlq}:0:${positions[1].offset} \\S+: SIGNATURE_INVALID: unsigned`));
    const after = await topicEndOffsets(infrastructure.brokers, Topics.orders);
    const caughtUp = await written.waitUntil(
      (all) =>
        Object.entries(after).every(
          ([partition, end]) =>
            end <= (before[Number(partition)] ?? 0) || all.some((m) => m.partition === Number(partition) && m.offset === end - 1),
        ),
      { timeoutMs: 30_000, description: `every record written to ${Topics.orders} during the replay` },
    );
    const planted = [byInventory, unsigned].map((record) => record.headers![Headers.messageId]);
    expect(caughtUp.filter((m) => planted.includes(m.headers[Headers.messageId]))).toEqual([]);
  });

  it('when ops has no signing keys to verify with, then dlq replay refuses to run and sends nothing', async () => {
    const before = await topicEndOffsets(infrastructure.brokers, Topics.reservations);
    const run = await runOps(infrastructure, ['dlq', 'replay', Topics.reservations, '--all'], 120_000, {
      MESSAGE_SIGNING_LOCAL_FILE: '/nonexistent/keys.json',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("dlq replay checks every record's signature and MESSAGE_VERIFY_KEYS is not set");
    expect(await topicEndOffsets(infrastructure.brokers, Topics.reservations)).toEqual(before);
  });

  it('when dlq replay gets neither --all nor --offset, then it refuses with the usage and exit code 2', async () => {
    const run = await runOps(infrastructure, ['dlq', 'replay', Topics.reservations]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('dlq replay needs exactly one of --all and --offset N');
  });
});
