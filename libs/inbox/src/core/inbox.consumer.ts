import { Logger } from '@nestjs/common';
import { retryDelayMs } from '@libs/backoff';
import type { RawInboxMessage } from '../envelope/inbox.envelope.js';
import type { InboxConfig } from '../inbox.config.js';
import type { InboxRoute } from '../routing/inbox.route.js';
import type { InboxBatch, InboxOutcome } from './inbox.batch.js';
import type { InboxTransaction } from './inbox.transaction.js';

/** How many records' failed attempts are remembered at most (oldest forgotten first: they then start over). */
const REMEMBERED_FAILURES = 10_000;

/**
 * The inbox: exactly-once effects on top of at-least-once delivery. Read this first; the speed-ups
 * wrap it without changing it (layers/inbox.layers.ts), and with all of them off this is the whole
 * inbox. For each record of a partition, in offset order:
 *
 * 1. Open a transaction and claim the message id: `INSERT ... ON CONFLICT DO NOTHING RETURNING`.
 *    No row back means a duplicate: a redelivered copy changes nothing.
 * 2. Otherwise run the handler in that same transaction, then commit: the claim and the handler's
 *    writes are durable together, or not at all.
 * 3. Only then let the offset go. A crash before this point redelivers the record; step 1 skips it.
 * 4. A handler that throws rolls back the claim with everything else. The record is tried again
 *    after a backoff, at most `INBOX_MAX_ATTEMPTS` times, then dead-lettered with its reason, and
 *    its offset goes (offset + 1): a poison message never blocks its partition.
 *
 * Steps 1 and 2 are {@link InboxTransaction.run} (with the envelope check before the claim: an
 * invalid record is dead-lettered at once and never claims its id); step 3 is `releaseOffsets`.
 */
export class InboxConsumer {
  private readonly logger = new Logger(InboxConsumer.name);

  constructor(
    private readonly transaction: InboxTransaction,
    private readonly config: InboxConfig,
  ) {}

  /** Consumes one partition's records, one transaction each; returns the outcome of each record handled, in order. */
  async consume(batch: InboxBatch, route: InboxRoute): Promise<InboxOutcome[]> {
    const outcomes: InboxOutcome[] = [];
    for (const record of batch.records) {
      // The partition was revoked or the consumer stops: its next owner goes on from the last resolved offset.
      if (!batch.isActive()) break;
      const outcome = await this.consumeRecord(batch, record, route);
      outcomes.push(outcome);
      // Nothing after a record waiting for its next attempt may run before it: per-key order holds.
      if (outcome === 'deferred') break;
      await batch.heartbeat();
    }
    return outcomes;
  }

  private async consumeRecord(batch: InboxBatch, record: RawInboxMessage, route: InboxRoute): Promise<InboxOutcome> {
    const attempt = 1 + (this.failures.get(this.failureKey(batch, record)) ?? 0);
    // Steps 1 and 2: claim the id, run the handler, commit; all in one transaction.
    const result = await this.transaction.run([{ batch, records: [record] }], route, attempt);
    if (result.committed) {
      this.forget(batch, record);
      // Step 3: only now let the offset go.
      const [[outcome]] = await result.releaseOffsets();
      return outcome;
    }
    // Step 4: the handler failed and nothing of it committed. Again after a backoff, while attempts are left...
    const { messageType, messageId } = result.message;
    this.logger.warn(`${route.consumer}: attempt ${attempt} for ${messageType} ${messageId} failed: ${result.error.message}`);
    if (attempt < this.config.INBOX_MAX_ATTEMPTS) {
      this.remember(batch, record, attempt);
      result.deferred();
      batch.retryLater(retryDelayMs(attempt, this.config.INBOX_RETRY_BASE_MS, this.config.INBOX_RETRY_MAX_MS));
      return 'deferred';
    }
    // ...then to the dead-letter topic with its reason, and its offset goes.
    this.forget(batch, record);
    await result.deadLetter(attempt);
    batch.resolve(record);
    return 'dead-lettered';
  }

  /** Whether `record` failed before and waits for another attempt: a speed-up layer hands it here alone, as a batch would only fail on it again. */
  failedBefore(batch: InboxBatch, record: RawInboxMessage): boolean {
    return this.failures.has(this.failureKey(batch, record));
  }

  /**
   * Failed attempts so far of each record that is waiting for another, by partition and offset.
   * In memory: after a restart or a rebalance a record starts over, which bounds its attempts per
   * process, not in all. Why the wait is not inline: kafkajs fetches again only once every batch
   * of a fetch is handled, so a wait inside the handler would hold the fetch's other partitions
   * too; handing the partition back ({@link InboxBatch.retryLater}) holds up only its own records.
   */
  private readonly failures = new Map<string, number>();

  private failureKey(batch: InboxBatch, record: RawInboxMessage): string {
    return `${batch.topic}\u0000${batch.partition}\u0000${record.offset}`;
  }

  private remember(batch: InboxBatch, record: RawInboxMessage, attempt: number): void {
    const key = this.failureKey(batch, record);
    this.failures.delete(key);
    this.failures.set(key, attempt);
    if (this.failures.size > REMEMBERED_FAILURES) this.failures.delete(this.failures.keys().next().value!);
  }

  private forget(batch: InboxBatch, record: RawInboxMessage): void {
    this.failures.delete(this.failureKey(batch, record));
  }
}
