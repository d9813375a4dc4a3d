import { Logger } from '@nestjs/common';
import type { TransactionContext } from '@libs/database';
import { messageVerification, type MessageVerification } from '@libs/envelope';
import { failpoint } from '@libs/failpoints';
import { claimMessages, idKey, storedHashes } from '../claim/inbox.claim.js';
import type { DeadLetterPublisher } from '../dead-letter/dead-letter.publisher.js';
import type { InboxEnvelope, RawInboxMessage } from '../envelope/inbox.envelope.js';
import { validateEnvelope } from '../envelope/inbox-envelope.validator.js';
import type { InboxConfig } from '../inbox.config.js';
import { InboxFailpoints } from '../inbox.failpoints.js';
import type { InboxRoute } from '../routing/inbox.route.js';
import type { InboxMetrics } from '../telemetry/inbox.metrics.js';
import { InboxTelemetry } from '../telemetry/inbox-transaction.telemetry.js';
import { failpointContext } from './failpoint.context.js';
import type { InboxOutcome, InboxPart } from './inbox.batch.js';

/** A valid record and its envelope. */
interface Entry {
  record: RawInboxMessage;
  envelope: InboxEnvelope;
}

/** A record that goes to the dead-letter topic, and why; `attempts` is 0 when it could never be handled. */
interface Letter {
  record: RawInboxMessage;
  reason: string;
  error: string;
  attempts: number;
}

/** What one transaction over some records came to. */
export type InboxTransactionResult =
  | {
      committed: true;
      /** After the commit: dead letters first (acks -1), then every record's offset resolved; the outcomes, part by part. */
      releaseOffsets(): Promise<InboxOutcome[][]>;
    }
  | {
      committed: false;
      error: Error;
      /** The first valid message: for a transaction of one record, the one whose handler failed. */
      message: InboxEnvelope;
      /** The record waits for its next attempt (its telemetry ends as `deferred`). */
      deferred(): void;
      /** Its attempts are spent: to the dead-letter topic as `HANDLER_FAILED` (its offset is then the caller's to resolve). */
      deadLetter(attempts: number): Promise<void>;
      /** A transaction of several records rolled back: each will be replayed on its own (counted in `inbox_batch_fallbacks_total`). */
      replayed(): void;
    };

/**
 * The inbox's one unit of work, for one record or many (of one partition or of several): check the
 * envelopes, then in ONE transaction claim every message id in one statement, sort out what was not
 * claimed (a duplicate, or the same id with another payload), take the route's locks, run the
 * handlers of the claimed messages in offset order, commit. A redelivery, or a concurrent copy in
 * another transaction (which blocks on the primary key until the first ends), finds the row and
 * changes nothing. Offsets are resolved only after the commit ({@link InboxTransactionResult}).
 */
export class InboxTransaction {
  private readonly logger = new Logger(InboxTransaction.name);
  /** The public keys that verify envelope signatures (`MESSAGE_VERIFY_KEYS`), read once; none means unsigned records pass. */
  private readonly signing: MessageVerification;

  constructor(
    private readonly tx: TransactionContext,
    private readonly deadLetters: DeadLetterPublisher,
    private readonly metrics: InboxMetrics,
    config: InboxConfig,
  ) {
    this.signing = messageVerification(config);
    if (this.signing.warning) this.logger.warn(this.signing.warning);
  }

  /**
   * Runs the records of `parts` in one transaction. Throws only when the inbox's own work failed
   * before any handler started (database unreachable): not the messages' fault, so nothing is
   * dead-lettered and no offset resolved; Kafka redelivers them later.
   */
  async run(parts: readonly InboxPart[], route: InboxRoute, attempt: number): Promise<InboxTransactionResult> {
    const { consumer } = route;
    const telemetry = new InboxTelemetry(parts, consumer, this.metrics);
    // 1. The envelope check, before any claim: an invalid record must never claim its id (a forged
    // copy would suppress the real message). Of two copies of one id, the first may run.
    const invalid: Letter[] = [];
    const firsts = new Map<string, Entry>();
    const laterCopies: Entry[] = [];
    for (const record of telemetry.records) {
      const check = validateEnvelope(record, route.accepts, consumer, this.signing);
      if (!check.valid) {
        invalid.push({ record, reason: check.reason, error: check.error, attempts: 0 });
        continue;
      }
      telemetry.bind(record, check.envelope);
      const id = idKey(check.envelope.messageId);
      if (firsts.has(id)) laterCopies.push({ record, envelope: check.envelope });
      else firsts.set(id, { record, envelope: check.envelope });
    }
    const processed: Entry[] = [];
    const duplicates: Entry[] = [];
    const mismatched: Letter[] = [];
    let handlersStarted = false;
    try {
      if (firsts.size > 0) {
        // 2. BEGIN. Everything below commits together, or not at all.
        await this.tx.run(async (manager) => {
          // 3. Claim every id in one INSERT ... ON CONFLICT DO NOTHING RETURNING: the ids it returns are ours.
          const claimed = await claimMessages(
            manager,
            consumer,
            [...firsts.values()].map((entry) => entry.envelope),
          );
          // 4. What was not claimed is a duplicate (same payload): it changes nothing; or the same id with another payload.
          const stored = await storedHashes(
            manager,
            consumer,
            [...firsts.keys()].filter((id) => !claimed.has(id)),
          );
          for (const entry of [...firsts.values(), ...laterCopies]) {
            const id = idKey(entry.envelope.messageId);
            const first = firsts.get(id)!;
            if (first === entry && claimed.has(id)) processed.push(entry);
            // A later copy of an id this transaction claims compares with the first copy's payload.
            else if ((stored.get(id) ?? first.envelope.payloadHash) === entry.envelope.payloadHash) duplicates.push(entry);
            else
              mismatched.push({
                record: entry.record,
                reason: 'PAYLOAD_MISMATCH',
                error: `message id ${entry.envelope.messageId} was seen before with another payload`,
                attempts: attempt,
              });
          }
          // 5. The handlers of the claimed messages, on this same transaction.
          handlersStarted = true;
          await this.handle(route, processed, telemetry);
          if (route.beforeCommitFailpoint) {
            for (const { envelope } of processed) await failpoint(route.beforeCommitFailpoint, failpointContext(envelope));
          }
        }); // 6. COMMIT (or ROLLBACK when anything above threw).
      }
    } catch (error) {
      telemetry.end();
      if (!handlersStarted) {
        telemetry.failed(error);
        throw error;
      }
      return this.rolledBack(error instanceof Error ? error : new Error(String(error)), [...firsts.values()][0], route, telemetry);
    }
    telemetry.end();
    return {
      committed: true,
      releaseOffsets: () => this.releaseOffsets(parts, route, { processed, duplicates, letters: [...invalid, ...mismatched] }, telemetry),
    };
  }

  /**
   * The route's locks first (one global order), then the handlers over runs of one message type,
   * in offset order: a run is one call, so a handler may do set-based work for all of it.
   */
  private async handle(route: InboxRoute, entries: readonly Entry[], telemetry: InboxTelemetry): Promise<void> {
    if (entries.length === 0) return;
    await route.lock(entries.map((entry) => entry.envelope));
    for (let start = 0; start < entries.length;) {
      const type = entries[start].envelope.messageType;
      let end = start + 1;
      while (end < entries.length && entries[end].envelope.messageType === type) end += 1;
      const envelopes = entries.slice(start, end).map((entry) => entry.envelope);
      await telemetry.inScopeOfRun(envelopes, () => route.handle(type, envelopes));
      start = end;
    }
  }

  /** 7. After the commit: the crash window, the dead letters, and only then the offsets. */
  private async releaseOffsets(
    parts: readonly InboxPart[],
    route: InboxRoute,
    result: { processed: Entry[]; duplicates: Entry[]; letters: Letter[] },
    telemetry: InboxTelemetry,
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
    if (telemetry.records.length > 1) {
      await failpoint(
        InboxFailpoints.afterBatchCommitBeforeOffsets,
        result.processed.map(({ envelope }) => failpointContext(envelope)).join(' '),
      );
    }
    // A crash here redelivers these records, whose valid messages are then duplicates, and
    // publishes these dead letters again (at least once).
    for (const letter of result.letters) {
      await this.deadLetter(consumer, letter);
      outcome.set(letter.record, 'dead-lettered');
    }
    return parts.map(({ batch, records }) =>
      records.map((record) => {
        telemetry.ended(record, outcome.get(record)!);
        batch.resolve(record);
        return outcome.get(record)!;
      }),
    );
  }

  private rolledBack(error: Error, { record, envelope }: Entry, route: InboxRoute, telemetry: InboxTelemetry): InboxTransactionResult {
    return {
      committed: false,
      error,
      message: envelope,
      deferred: () => telemetry.ended(record, 'deferred', error),
      deadLetter: async (attempts) => {
        await this.deadLetter(route.consumer, { record, reason: 'HANDLER_FAILED', error: `${error.name}: ${error.message}`, attempts });
        telemetry.ended(record, 'dead-lettered');
      },
      replayed: () => {
        telemetry.abandon('batch transaction rolled back');
        this.metrics.batchFallbacks.inc({ consumer: route.consumer });
        this.logger.warn(`${route.consumer}: ${telemetry.where()} rolled back (${error.message}); replayed on their own`);
      },
    };
  }

  /** The dead-letter topic, its metric and its log line: one place for every reason. */
  private async deadLetter(consumer: string, letter: Letter): Promise<void> {
    const { record, reason, error, attempts } = letter;
    await this.deadLetters.publish({ message: record, consumer, reason, error, attempts });
    this.metrics.deadLettered.inc({ consumer, reason });
    this.logger.error(`${consumer}: dead-lettered ${record.topic}[${record.partition}]@${record.offset} (${reason}: ${error})`);
  }
}
