import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { Headers, type MessageDeclaration } from '@libs/envelope';
import { createDataSource, databaseUrl, migrateDatabase, NoActiveTransactionError, TransactionContext } from '@libs/database';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, uniqueName, waitFor } from '@tools/test-support';
import { CreateOutboxMessages1764460800010 } from '../storage/create-outbox-messages.migration.js';
import { PartitionOutboxMessages1764460801000 } from '../storage/partition-outbox-messages.migration.js';
import { OutboxMessage } from '../storage/outbox-message.entity.js';
import type { OutboxEvent } from './outbox.event.js';
import { OutboxEventRejectedError } from './outbox-event-rejected.error.js';
import { OUTBOX_CHANNEL, OutboxWriter } from './outbox.writer.js';

const { serverUrl } = testInfrastructure();

/** A stand-in for a domain declaration: a ThingHappened must carry a non-negative amount. */
const ThingHappened: MessageDeclaration = {
  topic: 'test.thing.v1',
  type: 'ThingHappened',
  schemaVersion: 3,
  producer: 'test-producer',
  schema: z.looseObject({ amount: z.number().min(0, { error: 'must be >= 0' }) }),
};

const event = (aggregateId: string, overrides: Partial<OutboxEvent> = {}): OutboxEvent => ({
  message: ThingHappened,
  aggregateType: 'thing',
  aggregateId,
  payload: { aggregateId, amount: 42, nested: { ok: true } },
  ...overrides,
});

describe('OutboxWriter (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let tx: TransactionContext;
  let writer: OutboxWriter;
  let listener: pg.Client;
  const notifications: string[] = [];

  const rowsOf = (aggregateId: string): Promise<Record<string, any>[]> =>
    dataSource.query('SELECT * FROM outbox_messages WHERE aggregate_id = $1 ORDER BY seq', [aggregateId]);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'outbox_writer');
    dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [OutboxMessage],
      migrations: [CreateOutboxMessages1764460800010, PartitionOutboxMessages1764460801000],
      poolSize: 4,
    }).initialize();
    await migrateDatabase(dataSource, serverUrl, database);
    tx = new TransactionContext(dataSource);
    writer = new OutboxWriter(tx);
    listener = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
    await listener.connect();
    listener.on('notification', (message) => notifications.push(message.payload ?? ''));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
  });

  afterAll(async () => {
    await listener?.end();
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when add is called outside a transaction, then it throws NoActiveTransactionError and writes nothing', async () => {
    const aggregateId = uniqueName('outside');
    await expect(writer.add(event(aggregateId))).rejects.toThrow(NoActiveTransactionError);
    await expect(writer.add(event(aggregateId))).rejects.toThrow(/OutboxWriter.add must run inside/);
    expect(await rowsOf(aggregateId)).toEqual([]);
  });

  it('when add runs in a transaction that commits, then the row holds the event and its envelope headers, message-id = row id', async () => {
    const aggregateId = uniqueName('committed');
    const occurredAt = new Date('2026-01-02T03:04:05.678Z');
    const id = await tx.run(() => writer.add(event(aggregateId, { occurredAt, causationId: 'cause-1', correlationId: 'corr-1' })));

    const [row] = await rowsOf(aggregateId);
    // Time-ordered (UUID version 7), so the outbox's and the consumers' inbox keys stay append-only.
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(row).toMatchObject({
      id,
      aggregate_type: 'thing',
      aggregate_id: aggregateId,
      message_type: 'ThingHappened',
      topic: 'test.thing.v1',
      key: aggregateId,
      payload: { aggregateId, amount: 42, nested: { ok: true } },
      published_at: null,
      attempts: 0,
      last_error: null,
    });
    expect(row.created_at.toISOString()).toBe(occurredAt.toISOString());
    expect(row.headers).toEqual({
      [Headers.messageId]: id,
      [Headers.messageType]: 'ThingHappened',
      [Headers.schemaVersion]: '3',
      [Headers.aggregateId]: aggregateId,
      [Headers.occurredAt]: occurredAt.toISOString(),
      [Headers.correlationId]: 'corr-1',
      [Headers.causationId]: 'cause-1',
      [Headers.traceparent]: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
    });
  });

  it('when no key, correlation or causation is given, then key and correlation-id default to the aggregate id and causation-id is absent', async () => {
    const aggregateId = uniqueName('defaults');
    await tx.run(() => writer.add(event(aggregateId)));
    await tx.run(() => writer.add(event(aggregateId, { key: 'explicit-key' })));
    const [first, second] = await rowsOf(aggregateId);
    expect(first.key).toBe(aggregateId);
    expect(first.headers[Headers.correlationId]).toBe(aggregateId);
    expect(first.headers).not.toHaveProperty(Headers.causationId);
    expect(second.key).toBe('explicit-key');
    expect(Number(second.seq)).toBeGreaterThan(Number(first.seq));
  });

  it('when the transaction rolls back, then neither the row nor its NOTIFY survive; a committed one is notified at commit', async () => {
    const rolledBack = uniqueName('rolled-back');
    await expect(
      tx.run(async () => {
        await writer.add(event(rolledBack, { message: { ...ThingHappened, topic: 'test.rolled-back.v1' } }));
        throw new Error('use case failed after writing the event');
      }),
    ).rejects.toThrow('use case failed');
    expect(await rowsOf(rolledBack)).toEqual([]);

    notifications.length = 0;
    const committed = uniqueName('notified');
    await tx.run(async () => {
      await writer.add(event(committed, { message: { ...ThingHappened, topic: 'test.committed.v1' } }));
      // Not before commit: the relay must never wake up for a row it cannot see yet.
      expect(notifications).toEqual([]);
    });
    // Notifications arrive in commit order, so had the rolled-back one been sent, it would be first.
    // Only this test's topics count: a NOTIFY of an earlier test's commit may still be on its way.
    const ours = () => notifications.filter((topic) => topic === 'test.rolled-back.v1' || topic === 'test.committed.v1');
    await waitFor(() => ours().length > 0, { timeoutMs: 5000, description: 'the NOTIFY of the committed row' });
    expect(ours()).toEqual(['test.committed.v1']);
  });

  it('when the payload violates its declaration, then add throws naming the message type and field, and the transaction writes nothing', async () => {
    const aggregateId = uniqueName('invalid');
    await expect(tx.run(() => writer.add(event(aggregateId, { payload: { aggregateId, amount: -1 } })))).rejects.toThrow(
      OutboxEventRejectedError,
    );
    await expect(tx.run(() => writer.add(event(aggregateId, { payload: { amount: -1 } })))).rejects.toThrow(
      `ThingHappened for ${aggregateId} on test.thing.v1 violates its contract: payload.amount must be >= 0`,
    );
    expect(await rowsOf(aggregateId)).toEqual([]);
    // The same event with a valid payload goes in: the declaration, not the writer, refused it.
    await tx.run(() => writer.add(event(aggregateId)));
    expect(await rowsOf(aggregateId)).toHaveLength(1);
  });
});
