import { Inject, Injectable, Logger } from '@nestjs/common';
import { retryDelayMs } from '@libs/backoff';
import { TransactionContext } from '@libs/database';
import { failpoint } from '@libs/failpoints';
import { DeadLetterPublisher } from './dead-letter.publisher.js';
import { messageSigning, type MessageSigning } from '@libs/envelope';
import { validateEnvelope } from './envelope-validator.js';
import { failpointContext } from './failpoint-context.js';
import { InboxFailpoints } from './inbox.failpoints.js';
import { claimMessages, idKey, storedHashes } from './inbox-claim.js';
import type { InboxRoute } from './inbox-consumes.js';
import type { InboxEnvelope, RawInboxMessage } from './inbox-envelope.js';
import {
  abandonMessageTelemetry,
  bindMessageTelemetry,
  endMessageTelemetry,
  inMessageScope,
  type MessageTelemetry,
  startBatchSpan,
  startMessageTelemetry,
} from './inbox-telemetry.js';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxMetrics } from './inbox.metrics.js';

/** The records of ONE partition, in offset order, as the transport hands them to the inbox. */
export interface InboxBatch {
  topic: string;
  partition: number;
  records: readonly RawInboxMessage[];
  /** Lets the offset of `record` advance (committed by the consumer later): only after its commit. */
  resolve(record: RawInboxMessage): void;
  heartbeat(): Promise<void>;
  /** False once the consumer stops or the partition was revoked: stop taking new chunks. */
  isActive(): boolean;
  /**
   * Hands this partition back after a handler failed: nothing from the failed record on is
   * resolved, and the transport delivers it again from there in `delayMs` (Kafka: the partition is
   * paused, then resumed), while every other partition goes on being fetched and handled.
   */
  retryLater(delayMs: number): void;
}

/** `deferred`: a handler failed and the record waits for its next attempt (see {@link InboxBatch.retryLater}). */
export type InboxOutcome = 'processed' | 'duplicate' | 'dead-lettered' | 'deferred';

/** How many records' failed attempts are remembered at most (oldest forgotten first: they then start over). */
const REMEMBERED_FAILURES = 10_000;

/** Records of one partition's batch that share a transaction with others. */
interface Part {
  batch: InboxBatch;
  records: readonly RawInboxMessage[];
}

/** A valid record and its envelope. */
interface Entry {
  record: RawInboxMessage;
  envelope: InboxEnvelope;
}

/** A record that goes to the dead-letter topic, and why. */
interface Letter {
  record: RawInboxMessage;
  reason: string;
  error: string;
  /** 0 when the message could never be handled; otherwise the attempts made. */
  attempts: number;
}

/** A chunk sorted by the envelope check: what is invalid, the first copy of each id, later copies. */
interface Classified {
  invalid: Letter[];
  unique: Map<string, Entry>;
  laterCopies: Entry[];
}

type Attempt = { committed: true; processed: Entry[]; duplicates: Entry[]; mismatched: Letter[] } | { committed: false; error: Error };

/**
 * The inbox: exactly-once effects on top of at-least-once delivery, for one message or a batch of
 * one partition's records, through one path. In ONE transaction: claim every message id in one
 * statement, classify what was not claimed (duplicate, or the same id with another payload), take
 * the batch's locks, run the handlers of the claimed messages in offset order, commit; only then
 * resolve the offsets. A redelivery, or a concurrent copy in another transaction (which blocks on
 * the primary key until the first commits), finds the row and changes nothing. One message is a
 * batch of one (`INBOX_BATCH_SIZE=1` makes every message one); the batches of several partitions
 * of one fetch share one transaction ({@link consumeTogether}).
 *
 * Poison never blocks a partition: an invalid message is dead-lettered at once; when a batch's
 * handlers fail, the batch rolls back whole and is replayed, each partition alone, then one message at a time, so the failure
 * is isolated and partition order kept; a single message that keeps failing is handed back to the
 * transport to be delivered again after a backoff ({@link InboxBatch.retryLater}: only its own
 * partition waits, and no wait runs inside a fetch), then dead-lettered. Only when the inbox itself cannot write (database down) does the
 * error propagate, leaving the offsets for a later redelivery.
 */
@Injectable()
export class InboxConsumer {
  private readonly logger = new Logger(InboxConsumer.name);

  constructor(
    @Inject(TransactionContext) private readonly tx: TransactionContext,
    @Inject(DeadLetterPublisher) private readonly deadLetters: DeadLetterPublisher,
    @Inject(InboxMetrics) private readonly metrics: InboxMetrics,
    @Inject(INBOX_CONFIG) private readonly config: InboxConfig,
  ) {
    this.signing = messageSigning(config);
    if (this.signing.warning) this.logger.warn(this.signing.warning);
  }

  /** The keys that verify envelope signatures (`MESSAGE_SIGNING_KEYS`), read once; none means unsigned records pass. */
  private readonly signing: MessageSigning;

  /** Consumes `batch` through `route` in chunks of `INBOX_BATCH_SIZE`; returns the outcome of each record handled, in order. */
  async consume(batch: InboxBatch, route: InboxRoute): Promise<InboxOutcome[]> {
    const outcomes: InboxOutcome[] = [];
    for (let start = 0; start < batch.records.length && batch.isActive(); start += this.config.INBOX_BATCH_SIZE) {
      outcomes.push(...(await this.consumeChunk(batch, batch.records.slice(start, start + this.config.INBOX_BATCH_SIZE), route)));
      // Nothing after a deferred record may run before it: per-key order holds within the partition.
      if (outcomes.at(-1) === 'deferred') break;
      await batch.heartbeat();
    }
    return outcomes;
  }

  /**
   * Failed attempts so far of each record that is waiting for another, by partition and offset.
   * In memory: after a restart or a rebalance a record starts over, which bounds its attempts per
   * process, not in all. Why not retry inline: a wait inside the handler holds this fetch's other
   * partitions too (kafkajs fetches again only once every batch of a fetch is handled), so five
   * failing records on one partition delayed an order on another by seconds.
   */
  private readonly failures = new Map<string, number>();

  private failureKey(batch: InboxBatch, record: RawInboxMessage): string {
    return `${batch.topic}\u0000${batch.partition}\u0000${record.offset}`;
  }

  /**
   * Consumes the batches of several partitions that one fetch handed over together, through the
   * same `route`: whole batches go into ONE transaction, as far as `INBOX_BATCH_SIZE` has room,
   * instead of a transaction (with its claim, locks and commit) per partition; a batch without room
   * goes on alone, at the same time. When that transaction rolls back, each of its partitions
   * starts over alone ({@link consume}), so a failure stays with its partition; when the inbox
   * cannot write, each of them rejects and nothing of theirs is resolved.
   * Returns one promise per batch, in the order of `batches`, each settling on its own: a batch
   * that fails alone (a rebalance found by its heartbeat) rejects only its own caller, never one
   * whose records are still being handled.
   */
  consumeTogether(batches: readonly InboxBatch[], route: InboxRoute): Promise<InboxOutcome[]>[] {
    const parts: Part[] = [];
    let room = this.config.INBOX_BATCH_SIZE;
    for (const batch of batches) {
      const { records } = batch;
      // A record that failed before comes alone (see consumeChunk).
      if (records.length === 0 || records.length > room || !batch.isActive() || this.failures.has(this.failureKey(batch, records[0])))
        continue;
      parts.push({ batch, records });
      room -= records.length;
    }
    if (parts.length < 2) return batches.map((batch) => this.consume(batch, route));
    const together = this.inOneTransaction(parts, route);
    return batches.map((batch) => {
      const index = parts.findIndex((part) => part.batch === batch);
      if (index < 0) return this.consume(batch, route);
      return together.then((done) => done?.[index] ?? this.consume(batch, route));
    });
  }

  private async consumeChunk(batch: InboxBatch, records: readonly RawInboxMessage[], route: InboxRoute): Promise<InboxOutcome[]> {
    if (records.length > 1) {
      // A record that failed before comes alone: a batch attempt would only fail on it again.
      if (this.failures.has(this.failureKey(batch, records[0]))) return this.oneByOne(batch, records, route);
      const [done] = (await this.inOneTransaction([{ batch, records }], route)) ?? [];
      return done ?? this.oneByOne(batch, records, route);
    }
    const { consumer } = route;
    const key = this.failureKey(batch, records[0]);
    const attempt = 1 + (this.failures.get(key) ?? 0);
    const { result, chunk, telemetry } = await this.run([{ batch, records }], route, attempt);
    if (result.committed) {
      this.failures.delete(key);
      return (await this.afterCommit([{ batch, records }], route, chunk.invalid, result, telemetry))[0];
    }
    const [entry] = chunk.unique.values();
    this.logger.warn(
      `${consumer}: attempt ${attempt} for ${entry.envelope.messageType} ${entry.envelope.messageId} failed: ${result.error.message}`,
    );
    if (attempt >= this.config.INBOX_MAX_ATTEMPTS) {
      this.failures.delete(key);
      const error = `${result.error.name}: ${result.error.message}`;
      await this.deadLetter(consumer, { record: entry.record, reason: 'HANDLER_FAILED', error, attempts: attempt });
      endMessageTelemetry(telemetry.get(entry.record)!, 'dead-lettered');
      batch.resolve(entry.record);
      return ['dead-lettered'];
    }
    this.failures.delete(key);
    this.failures.set(key, attempt);
    if (this.failures.size > REMEMBERED_FAILURES) this.failures.delete(this.failures.keys().next().value!);
    endMessageTelemetry(telemetry.get(entry.record)!, 'deferred', result.error);
    batch.retryLater(retryDelayMs(attempt, this.config.INBOX_RETRY_BASE_MS, this.config.INBOX_RETRY_MAX_MS));
    return ['deferred'];
  }

  /**
   * Several records (of one partition or of several) in one transaction. Returns the outcomes of
   * each part once it committed, or undefined when it rolled back: the caller replays them.
   */
  private async inOneTransaction(parts: readonly Part[], route: InboxRoute): Promise<InboxOutcome[][] | undefined> {
    const { consumer } = route;
    const { result, chunk, telemetry } = await this.run(parts, route, 1);
    if (result.committed) return this.afterCommit(parts, route, chunk.invalid, result, telemetry);
    for (const message of telemetry.values()) abandonMessageTelemetry(message, 'batch transaction rolled back');
    this.metrics.batchFallbacks.inc({ consumer });
    const where = parts.map(({ batch, records }) => `${records.length} on ${batch.topic}[${batch.partition}]`).join(', ');
    this.logger.warn(
      `${consumer}: batch of ${where} failed (${result.error.message}); ${parts.length > 1 ? 'each partition alone' : 'one message at a time'}`,
    );
    return undefined;
  }

  /**
   * Classifies the records of `parts` and runs them in one transaction, with their telemetry and
   * timing. Throws only when the inbox could not write (database unreachable), every record's
   * telemetry then ended as failed.
   */
  private async run(parts: readonly Part[], route: InboxRoute, attempt: number) {
    const { consumer } = route;
    const records = parts.flatMap((part) => part.records);
    const single = records.length === 1;
    const telemetry = new Map(records.map((record) => [record, startMessageTelemetry(record, consumer)]));
    const chunk = this.classify(records, route, telemetry);
    const spans = single
      ? []
      : parts.map(({ batch, records: own }) =>
          startBatchSpan(
            batch.topic,
            batch.partition,
            consumer,
            own.map((record) => telemetry.get(record)!),
          ),
        );
    const endTimer = (single ? this.metrics.handlerDuration : this.metrics.batchDuration).startTimer({ consumer });
    try {
      return { result: await this.attempt(route, chunk, telemetry, attempt), chunk, telemetry };
    } catch (error) {
      // Nothing ran: the inbox could not write (database unreachable). Not the message's fault;
      // dead-lettering it would empty the topic into the DLQ during an outage.
      for (const message of telemetry.values()) endMessageTelemetry(message, 'failed', error);
      throw error;
    } finally {
      endTimer();
      for (const span of spans) span.end();
    }
  }

  private async oneByOne(batch: InboxBatch, records: readonly RawInboxMessage[], route: InboxRoute): Promise<InboxOutcome[]> {
    const outcomes: InboxOutcome[] = [];
    for (const record of records) {
      if (!batch.isActive()) break;
      outcomes.push(...(await this.consumeChunk(batch, [record], route)));
      if (outcomes.at(-1) === 'deferred') break;
    }
    return outcomes;
  }

  /** The envelope check of every record; the first copy of each message id is the one that may run. */
  private classify(records: readonly RawInboxMessage[], route: InboxRoute, telemetry: Map<RawInboxMessage, MessageTelemetry>): Classified {
    const chunk: Classified = { invalid: [], unique: new Map(), laterCopies: [] };
    for (const record of records) {
      const check = validateEnvelope(record, route.accepts, route.consumer, this.signing);
      if (!check.valid) {
        chunk.invalid.push({ record, reason: check.reason, error: check.error, attempts: 0 });
        continue;
      }
      bindMessageTelemetry(check.envelope, telemetry.get(record)!);
      const id = idKey(check.envelope.messageId);
      if (chunk.unique.has(id)) chunk.laterCopies.push({ record, envelope: check.envelope });
      else chunk.unique.set(id, { record, envelope: check.envelope });
    }
    return chunk;
  }

  /** One transaction over the chunk. Throws only when the inbox's own work failed before any handler started. */
  private async attempt(
    route: InboxRoute,
    chunk: Classified,
    telemetry: Map<RawInboxMessage, MessageTelemetry>,
    attempt: number,
  ): Promise<Attempt> {
    const { consumer } = route;
    if (chunk.unique.size === 0) return { committed: true, processed: [], duplicates: [], mismatched: [] };
    let handlersStarted = false;
    try {
      return await this.tx.run(async (manager) => {
        const firsts = [...chunk.unique.values()];
        const claimed = await claimMessages(
          manager,
          consumer,
          firsts.map((entry) => entry.envelope),
        );
        const hashes = await storedHashes(
          manager,
          consumer,
          [...chunk.unique.keys()].filter((id) => !claimed.has(id)),
        );
        const duplicates: Entry[] = [];
        const mismatched: Letter[] = [];
        for (const entry of [...firsts, ...chunk.laterCopies]) {
          const id = idKey(entry.envelope.messageId);
          const first = chunk.unique.get(id)!;
          if (first === entry && claimed.has(id)) continue;
          // A later copy of a message this chunk claims compares with the first copy's payload.
          const stored = hashes.get(id) ?? first.envelope.payloadHash;
          if (stored === entry.envelope.payloadHash) duplicates.push(entry);
          else
            mismatched.push({
              record: entry.record,
              reason: 'PAYLOAD_MISMATCH',
              error: `message id ${entry.envelope.messageId} was seen before with another payload`,
              attempts: attempt,
            });
        }
        const processed = firsts.filter((entry) => claimed.has(idKey(entry.envelope.messageId)));
        handlersStarted = true;
        await this.runHandlers(route, processed, telemetry);
        if (route.beforeCommitFailpoint) {
          for (const { envelope } of processed) await failpoint(route.beforeCommitFailpoint, failpointContext(envelope));
        }
        return { committed: true as const, processed, duplicates, mismatched };
      });
    } catch (error) {
      if (!handlersStarted) throw error;
      return { committed: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  /**
   * The batch's locks first (one global order), then the handlers over runs of one message type,
   * in offset order: a run is one call, so a handler may do set-based work for all of it.
   */
  private async runHandlers(
    route: InboxRoute,
    entries: readonly Entry[],
    telemetry: Map<RawInboxMessage, MessageTelemetry>,
  ): Promise<void> {
    if (entries.length === 0) return;
    await route.lock(entries.map((entry) => entry.envelope));
    for (let start = 0; start < entries.length;) {
      const type = entries[start].envelope.messageType;
      let end = start + 1;
      while (end < entries.length && entries[end].envelope.messageType === type) end += 1;
      const run = entries.slice(start, end);
      const envelopes = run.map((entry) => entry.envelope);
      // One message runs in its own scope: a handler writing with the active span needs nothing more.
      if (run.length === 1) await inMessageScope(telemetry.get(run[0].record)!, () => route.handle(type, envelopes));
      else await route.handle(type, envelopes);
      start = end;
    }
  }

  private async afterCommit(
    parts: readonly Part[],
    route: InboxRoute,
    invalid: readonly Letter[],
    result: Extract<Attempt, { committed: true }>,
    telemetry: Map<RawInboxMessage, MessageTelemetry>,
  ): Promise<InboxOutcome[][]> {
    const { consumer } = route;
    const outcome = new Map<RawInboxMessage, InboxOutcome>();
    for (const { record } of result.processed) outcome.set(record, 'processed');
    for (const { record } of result.duplicates) outcome.set(record, 'duplicate');
    if (result.processed.length > 0) this.metrics.processed.inc({ consumer }, result.processed.length);
    if (result.duplicates.length > 0) this.metrics.duplicates.inc({ consumer }, result.duplicates.length);
    if (route.afterCommitFailpoint) {
      for (const { envelope } of result.processed) await failpoint(route.afterCommitFailpoint, failpointContext(envelope));
    }
    if (parts.length > 1 || parts[0].records.length > 1) {
      await failpoint(
        InboxFailpoints.afterBatchCommitBeforeOffsets,
        result.processed.map(({ envelope }) => failpointContext(envelope)).join(' '),
      );
    }
    // After the commit and before the offsets: a crash here redelivers the chunk, whose valid
    // messages are then duplicates, and publishes these dead letters again (at least once).
    for (const letter of [...invalid, ...result.mismatched]) {
      await this.deadLetter(consumer, letter);
      outcome.set(letter.record, 'dead-lettered');
    }
    return parts.map(({ batch, records }) => {
      for (const record of records) {
        endMessageTelemetry(telemetry.get(record)!, outcome.get(record)!);
        batch.resolve(record);
      }
      return records.map((record) => outcome.get(record)!);
    });
  }

  /** The dead-letter topic, its metric and its log line: one place for every reason. */
  private async deadLetter(consumer: string, letter: Letter): Promise<void> {
    const { record, reason, error, attempts } = letter;
    await this.deadLetters.publish({ message: record, consumer, reason, error, attempts });
    this.metrics.deadLettered.inc({ consumer, reason });
    this.logger.error(`${consumer}: dead-lettered ${record.topic}[${record.partition}]@${record.offset} (${reason}: ${error})`);
  }
}
