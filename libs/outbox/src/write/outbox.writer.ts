import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Headers, schemaProblems } from '@libs/envelope';
import { timeOrderedUuid, TransactionContext } from '@libs/database';
import { currentTraceparent } from '@libs/telemetry';
import type { OutboxEvent } from './outbox.event.js';
import { OutboxEventRejectedError } from './outbox-event-rejected.error.js';

/** The channel the relay LISTENs on; notifications are delivered only when the writer commits. */
export const OUTBOX_CHANNEL = 'outbox_messages';

/** A new root context, for an event written outside any span (a script, a test without tracing). */
function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

/**
 * Adds events to the outbox inside the caller's transaction. There is deliberately no way to use it
 * outside one: an event written apart from its state change is the dual write this pattern removes.
 * Nor is there a way to add an event its consumers would refuse: every payload is validated first
 * against the event's message declaration, the same one its consumers' inbox handlers accept.
 */
@Injectable()
export class OutboxWriter {
  constructor(@Inject(TransactionContext) private readonly tx: TransactionContext) {}

  /**
   * Inserts the event; returns its id, which becomes the Kafka `message-id`. Throws
   * {@link OutboxEventRejectedError} (naming the message type and every field in error) when the
   * payload violates its declaration's schema, so the caller's transaction rolls back. Cost: one
   * schema validation per event, inside the writing transaction.
   */
  async add(event: OutboxEvent): Promise<string> {
    const [id] = await this.addMany([event]);
    return id;
  }

  /**
   * {@link add} for several events in ONE statement, in the given order (the relay keeps each
   * aggregate's order by insertion): for handlers that work on a batch, so a batch's answers cost
   * one round trip, not one per event. Every payload is validated before anything is written.
   */
  async addMany(events: readonly OutboxEvent[]): Promise<string[]> {
    this.tx.requireManager('OutboxWriter.add');
    if (events.length === 0) return [];
    const rows = events.map((event) => this.row(event));
    // One statement: the rows, and the wake-up hint for the relay (one per topic). The hint is not
    // a guarantee: delivered at commit, dropped on rollback (and merged with equal ones of the same
    // transaction); the relay's poll interval is the floor. Deferred: it goes in the round trip of
    // the transaction's next statement or of its COMMIT, and a failure fails that one.
    await this.tx.deferWrite(
      `WITH inserted AS (
         INSERT INTO outbox_messages (id, aggregate_type, aggregate_id, message_type, topic, key, payload, headers, created_at)
         SELECT (e->>'id')::uuid, e->>'aggregateType', e->>'aggregateId', e->>'messageType', e->>'topic', e->>'key',
                e->'payload', e->'headers', (e->>'createdAt')::timestamptz
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS event(e, n)
         ORDER BY n
         RETURNING topic)
       SELECT pg_notify($2, topic) FROM (SELECT DISTINCT topic FROM inserted) AS topics`,
      [JSON.stringify(rows), OUTBOX_CHANNEL],
      'OutboxWriter.add',
    );
    return rows.map((row) => row.id);
  }

  private row(event: OutboxEvent) {
    const problems = schemaProblems(event.message.schema, event.payload, 'payload');
    if (problems.length > 0) throw new OutboxEventRejectedError(event, problems);
    // Time-ordered: the outbox's primary key and every consumer's inbox key stay append-only.
    const id = timeOrderedUuid();
    const occurredAt = (event.occurredAt ?? new Date()).toISOString();
    const headers: Record<string, string> = {
      [Headers.messageId]: id,
      [Headers.messageType]: event.message.type,
      [Headers.schemaVersion]: String(event.message.schemaVersion),
      [Headers.aggregateId]: event.aggregateId,
      [Headers.occurredAt]: occurredAt,
      [Headers.correlationId]: event.correlationId ?? event.aggregateId,
      // The active span's context (the HTTP request's, or the consumer span of the message being
      // handled), so the relay and every consumer continue the same trace.
      [Headers.traceparent]: event.traceparent ?? currentTraceparent() ?? newTraceparent(),
      ...(event.causationId ? { [Headers.causationId]: event.causationId } : {}),
    };
    return {
      id,
      aggregateType: event.aggregateType,
      aggregateId: event.aggregateId,
      messageType: event.message.type,
      topic: event.message.topic,
      key: event.key ?? event.aggregateId,
      payload: event.payload,
      headers,
      createdAt: occurredAt,
    };
  }
}
