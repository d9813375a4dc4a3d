import { Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EntityManager } from 'typeorm';
import { TransactionContext } from '@app/database';
import { messageSigning } from '@app/envelope';
import { failpoint } from '@app/failpoints';
import { inboxBatchScope } from './inbox-batch.scope.js';
import { DeadLetterPublisher } from './dead-letter.publisher.js';
import { failpointContext } from './failpoint-context.js';
import { validateEnvelope } from './envelope-validator.js';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import type { InboxEnvelope, RawInboxMessage } from './inbox-envelope.js';
import { InboxHandlerRegistry } from './inbox-handler.registry.js';
import { InboxMetrics } from './inbox.metrics.js';
import {
  abandonMessageTelemetry,
  endMessageTelemetry,
  inMessageScope,
  type MessageTelemetry,
  startBatchSpan,
  startMessageTelemetry,
} from './inbox-telemetry.js';
import type { InboxHandlerOptions } from './inbox-handler.options.js';

/** What the transport gives the batch consumer for the records of ONE partition, in offset order. */
export interface InboxBatch {
  topic: string;
  partition: number;
  records: RawInboxMessage[];
  /** Runs one record through the Nest handler pipeline (interceptor, pipes, handler). */
  invoke(record: RawInboxMessage): Promise<void>;
  /** Lets the offset of `record` advance (committed by the consumer later): only after its commit. */
  resolve(record: RawInboxMessage): void;
  heartbeat(): Promise<void>;
  /** False once the consumer stops or the partition was revoked: stop taking new chunks. */
  isActive(): boolean;
}

interface DeadLetterDue {
  record: RawInboxMessage;
  reason: string;
  error: string;
  /** 0 when the message could never be handled; 1 when it was, once, and was refused. */
  attempts: number;
}

const CLAIM_MANY = `
  INSERT INTO inbox_messages (consumer, message_id, message_type, topic, partition, "offset", payload_hash)
  SELECT $1, id, message_type, $2, $3, "offset", payload_hash
  FROM unnest($4::uuid[], $5::text[], $6::bigint[], $7::text[]) AS claim(id, message_type, "offset", payload_hash)
  ON CONFLICT (consumer, message_id) DO NOTHING
  RETURNING message_id`;

/**
 * The inbox for a batch of records from one partition, in ONE transaction: claim every message id
 * in one statement, run the handlers of the claimed ones in offset order, commit, and only then
 * resolve the offsets. Same guarantees as one transaction per message (a record's offset advances
 * only after its effects committed; a redelivered id changes nothing), at a fraction of the cost:
 * one BEGIN/COMMIT and one claim per batch instead of per message.
 *
 * One failing message must not undo or hold back the others. When anything in the batch
 * transaction fails, it rolls back whole and the chunk is replayed one message at a time through
 * the per-message path ({@link InboxProcessor}: its own transaction, retries with backoff, then
 * the dead-letter topic), so the failure is isolated and order within the partition is kept.
 */
@Injectable()
export class InboxBatchConsumer {
  private readonly logger = new Logger(InboxBatchConsumer.name);

  constructor(
    @Inject(TransactionContext) private readonly tx: TransactionContext,
    @Inject(DeadLetterPublisher) private readonly deadLetters: DeadLetterPublisher,
    @Inject(InboxMetrics) private readonly metrics: InboxMetrics,
    @Inject(InboxHandlerRegistry) private readonly registry: InboxHandlerRegistry,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(INBOX_CONFIG) private readonly config: InboxConfig,
  ) {}

  async consume(batch: InboxBatch): Promise<void> {
    const handler = this.registry.handlerOf(batch.topic);
    for (let start = 0; start < batch.records.length && batch.isActive(); start += this.config.INBOX_BATCH_SIZE) {
      const chunk = batch.records.slice(start, start + this.config.INBOX_BATCH_SIZE);
      if (handler && chunk.length > 1) await this.consumeChunk(batch, chunk, handler);
      else await this.oneByOne(batch, chunk);
      await batch.heartbeat();
    }
  }

  private async oneByOne(batch: InboxBatch, records: RawInboxMessage[]): Promise<void> {
    for (const record of records) {
      if (!batch.isActive()) return;
      await batch.invoke(record);
      batch.resolve(record);
    }
  }

  private async consumeChunk(batch: InboxBatch, records: RawInboxMessage[], handler: InboxHandlerOptions): Promise<void> {
    const { consumer } = handler;
    const deadLetters: DeadLetterDue[] = [];
    const unique = new Map<string, { record: RawInboxMessage; envelope: InboxEnvelope }>();
    const laterCopies: { record: RawInboxMessage; envelope: InboxEnvelope }[] = [];
    const signing = messageSigning(this.config);
    for (const record of records) {
      const check = validateEnvelope(record, handler.accepts, consumer, signing);
      if (!check.valid) deadLetters.push({ record, reason: check.reason, error: check.error, attempts: 0 });
      else if (unique.has(idKey(check.envelope.messageId))) laterCopies.push({ record, envelope: check.envelope });
      else unique.set(idKey(check.envelope.messageId), { record, envelope: check.envelope });
    }

    // A span per message (continuing its producer's trace) and one for the batch, linked to them.
    const telemetry = new Map<RawInboxMessage, MessageTelemetry>();
    for (const { record } of unique.values()) telemetry.set(record, startMessageTelemetry(record, consumer));
    const batchSpan = startBatchSpan(batch.topic, batch.partition, consumer, [...telemetry.values()]);

    let handlersStarted = false;
    const endTimer = this.metrics.batchDuration.startTimer({ consumer });
    let outcome: { processed: InboxEnvelope[]; duplicates: number };
    try {
      outcome = await this.tx.run(async (manager) => {
        const claimed = await this.claim(
          manager,
          consumer,
          batch,
          [...unique.values()].map(({ envelope }) => envelope),
        );
        let duplicates = 0;
        const hashes = await this.storedHashes(
          manager,
          consumer,
          [...unique.keys()].filter((id) => !claimed.has(id)),
        );
        for (const { record, envelope } of [...unique.values(), ...laterCopies]) {
          const id = idKey(envelope.messageId);
          if (unique.get(id)!.record === record && claimed.has(id)) continue;
          // A later copy of a message this chunk claims compares with the first copy's payload.
          const stored = hashes.get(id) ?? unique.get(id)!.envelope.payloadHash;
          if (stored === envelope.payloadHash) duplicates += 1;
          else
            deadLetters.push({
              record,
              reason: 'PAYLOAD_MISMATCH',
              error: `message id ${envelope.messageId} was seen before with another payload`,
              attempts: 1,
            });
        }
        const toRun = [...unique.values()].filter(({ envelope }) => claimed.has(idKey(envelope.messageId)));
        handlersStarted = true;
        if (handler.batchLocks && toRun.length > 0) {
          await this.moduleRef.get(handler.batchLocks, { strict: false }).lock(toRun.map(({ envelope }) => envelope));
        }
        const scope = {
          topic: batch.topic,
          partition: batch.partition,
          envelopes: new Map(toRun.map(({ record, envelope }) => [record.offset, envelope])),
        };
        await inboxBatchScope.run(scope, async () => {
          for (const { record } of toRun) await inMessageScope(telemetry.get(record)!, () => batch.invoke(record));
        });
        if (handler.beforeCommitFailpoint) {
          for (const { envelope } of toRun) await failpoint(handler.beforeCommitFailpoint, failpointContext(envelope));
        }
        return { processed: toRun.map(({ envelope }) => envelope), duplicates };
      });
    } catch (error) {
      endTimer();
      for (const message of telemetry.values()) abandonMessageTelemetry(message, 'batch transaction rolled back');
      batchSpan.end();
      // Nothing of the chunk ran: the database is unreachable. Let the error reach the consumer,
      // which retries the batch later; dead-lettering would empty the topic during an outage.
      if (!handlersStarted) throw error;
      this.metrics.batchFallbacks.inc({ consumer });
      this.logger.warn(
        `${consumer}: batch of ${records.length} on ${batch.topic}[${batch.partition}] failed (${(error as Error).message}); one message at a time`,
      );
      await this.oneByOne(batch, records);
      return;
    }
    endTimer();
    const processedIds = new Set(outcome.processed.map((envelope) => idKey(envelope.messageId)));
    const refused = new Set(deadLetters.map((letter) => letter.record));
    for (const [id, { record }] of unique) {
      endMessageTelemetry(telemetry.get(record)!, processedIds.has(id) ? 'processed' : refused.has(record) ? 'dead-lettered' : 'duplicate');
    }
    batchSpan.end();
    this.metrics.processed.inc({ consumer }, outcome.processed.length);
    if (outcome.duplicates > 0) this.metrics.duplicates.inc({ consumer }, outcome.duplicates);
    if (handler.afterCommitFailpoint) {
      for (const envelope of outcome.processed) await failpoint(handler.afterCommitFailpoint, failpointContext(envelope));
    }
    await failpoint('inbox.after-batch-commit-before-offsets', outcome.processed.map(failpointContext).join(' '));
    // After the commit and before the offsets: a crash here redelivers the chunk, whose valid
    // messages are then duplicates, and publishes these dead letters again (at least once).
    for (const letter of deadLetters) {
      await this.deadLetters.publish({
        message: letter.record,
        consumer,
        reason: letter.reason,
        error: letter.error,
        attempts: letter.attempts,
      });
      this.metrics.deadLettered.inc({ consumer, reason: letter.reason });
      this.logger.error(
        `${consumer}: dead-lettered ${letter.record.topic}[${letter.record.partition}]@${letter.record.offset} (${letter.reason}: ${letter.error})`,
      );
    }
    for (const record of records) batch.resolve(record);
  }

  /** Claims the ids in one statement; returns those this transaction inserted. */
  private async claim(manager: EntityManager, consumer: string, batch: InboxBatch, envelopes: InboxEnvelope[]): Promise<Set<string>> {
    if (envelopes.length === 0) return new Set();
    const rows: { message_id: string }[] = await manager.query(CLAIM_MANY, [
      consumer,
      batch.topic,
      batch.partition,
      envelopes.map((envelope) => envelope.messageId),
      envelopes.map((envelope) => envelope.messageType),
      envelopes.map((envelope) => envelope.offset),
      envelopes.map((envelope) => envelope.payloadHash),
    ]);
    return new Set(rows.map((row) => idKey(row.message_id)));
  }

  private async storedHashes(manager: EntityManager, consumer: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { message_id: string; payload_hash: string }[] = await manager.query(
      'SELECT message_id, payload_hash FROM inbox_messages WHERE consumer = $1 AND message_id = ANY($2::uuid[])',
      [consumer, ids],
    );
    return new Map(rows.map((row) => [idKey(row.message_id), row.payload_hash]));
  }
}

/** Postgres returns uuids in lower case; a producer may send them in upper case. */
function idKey(messageId: string): string {
  return messageId.toLowerCase();
}
