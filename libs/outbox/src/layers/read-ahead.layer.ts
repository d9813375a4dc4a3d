/**
 * Layer `read-ahead`: one relay transaction publishes up to `OUTBOX_BATCHES_PER_TRANSACTION` batches,
 * pipelined. While Kafka acknowledges batch k, Postgres marks batch k-1 and reads batch k+1 in ONE
 * statement, so the relay's Postgres work hides behind the broker's round trip instead of adding to it.
 *
 * - Changes: B full batches cost B + 4 Postgres round trips in one transaction, instead of four
 *   round trips (begin with the lock, read, mark, commit) per batch and a transaction each.
 * - Costs: a crash anywhere in the transaction republishes every batch of it (up to
 *   `OUTBOX_BATCH_SIZE` x `OUTBOX_BATCHES_PER_TRANSACTION` rows, duplicates consumers dedupe); the
 *   transaction and its lock stay open longer; and this file's reasoning below.
 * - Figure: relay against a raw kafkajs producer 0.39 before the read-ahead and the pending-retry
 *   index, 0.47 after; 0.60-0.61 to 0.65-0.68 once the mark went with the read (quiet machine).
 *   See docs/decisions/0101-read-ahead.md.
 * - Off: `OUTBOX_READ_AHEAD_ENABLED=false`; the relay then runs its core alone, one batch per transaction.
 *
 * Why per-key order still holds: the lock is held for the whole transaction, so no other relay
 * publishes meanwhile; batch k+1 is read in `seq` order excluding batch k's rows, and it is sent
 * only after batch k is acknowledged in full. If any row of batch k fails, batch k+1 is dropped
 * unsent (its rows stay pending and are read again next cycle, behind the failed rows' retry
 * delay), so a later event of an aggregate never overtakes its failed earlier one. Rows are still
 * marked only after their own ack, and only the commit makes the marks visible.
 */
import type { SpeedUpLayer } from '@libs/config';
import { failpoint } from '@libs/failpoints';
import type { EntityManager } from 'typeorm';
import type { OutboxConfig } from '../outbox.config.js';
import type { OutboxMetrics } from '../ops/outbox.metrics.js';
import type { TransactionResult } from '../relay/outbox.relay.js';
import { RelayFailpoints } from '../relay/relay.failpoints.js';
import { markPublished, type RelaySteps, SELECT_DUE_ROWS } from '../relay/relay.steps.js';
import type { OutboxMessage } from '../storage/outbox-message.entity.js';

export const readAheadLayer: SpeedUpLayer = {
  name: 'read-ahead',
  pattern: 'outbox',
  switch: 'OUTBOX_READ_AHEAD_ENABLED',
  changes:
    'One relay transaction sends up to OUTBOX_BATCHES_PER_TRANSACTION batches, reading the next batch and marking the previous one in one statement while Kafka acknowledges the current one.',
  costs:
    "A crash republishes every batch of the open transaction (duplicates consumers dedupe); the relay's lock and transaction are held longer.",
  decision: 'docs/decisions/0101-read-ahead.md',
};

/**
 * The mark of the batch Kafka acknowledged last (`$3`) and the read of the batch after the one in
 * flight, in one statement. The UPDATE runs in a data-modifying CTE, whose changes the SELECT of
 * the same statement does not see (one snapshot), so the caller puts the marked ids in `$2` too:
 * the rows just marked are excluded by id, not by `published_at`.
 */
const MARK_AND_SELECT_DUE_ROWS = `
  WITH marked AS (${markPublished('$3')} RETURNING id),
  ${SELECT_DUE_ROWS.trim().slice('WITH '.length)}`;

/** What the relay's cycle tells a layer: whether it is stopping, and the signal that abandons a send. */
interface RelayCycles {
  readonly stopping: boolean;
  readonly signal: AbortSignal;
}

export class ReadAhead {
  constructor(
    private readonly steps: RelaySteps,
    private readonly config: OutboxConfig,
    private readonly metrics: OutboxMetrics,
    private readonly cycles: RelayCycles,
  ) {}

  /** Up to `maxBatches` batches in one leader transaction, pipelined; undefined when not the leader. */
  publishBatches(maxBatches: number): Promise<TransactionResult | undefined> {
    return this.steps.inLeaderTransaction(async (manager) => {
      const total: TransactionResult = { leader: true, selected: 0, published: 0, failed: 0, batches: 0, moreDue: false };
      let rows = await this.steps.readDueRows(manager);
      // Acknowledged by Kafka, not yet marked: marked by the statement that reads the batch after
      // the next one, which runs while the next one is on its way to Kafka.
      let acked: OutboxMessage[] = [];
      while (rows.length > 0) {
        total.batches += 1;
        total.selected += rows.length;
        const full = rows.length === this.config.OUTBOX_BATCH_SIZE;
        const readAhead = full && total.batches < maxBatches && !this.cycles.stopping;
        await failpoint(RelayFailpoints.afterClaimBeforePublish);
        const inFlight = rows.map((row) => row.id);
        const previous = acked;
        acked = [];
        const next = readAhead
          ? this.markAndReadDueRows(manager, previous, inFlight)
          : this.steps.markPublished(manager, previous).then(() => [] as OutboxMessage[]);
        // allSettled, not all: a failed read must not end the transaction while a send is still in
        // flight, or the next cycle could start a second concurrent send on the idempotent producer.
        const [sent, read] = await Promise.allSettled([this.steps.send(rows, this.cycles.signal), next]);
        if (sent.status === 'rejected') throw sent.reason;
        if (read.status === 'rejected') throw read.reason;
        const outcome = sent.value;
        await failpoint(RelayFailpoints.afterPublishBeforeMark);
        total.published += outcome.published.length;
        total.failed += outcome.failed.length;
        acked = outcome.published;
        if (outcome.failed.length > 0) {
          await this.steps.markPublished(manager, acked);
          await this.steps.scheduleRetries(manager, outcome.failed);
          return total;
        }
        if (this.cycles.stopping) break;
        if (!readAhead) {
          total.moreDue = full;
          break;
        }
        rows = read.value;
      }
      await this.steps.markPublished(manager, acked);
      return total;
    });
  }

  private async markAndReadDueRows(manager: EntityManager, acked: OutboxMessage[], inFlight: string[]): Promise<OutboxMessage[]> {
    if (acked.length === 0) return this.steps.readDueRows(manager, inFlight);
    const ackedIds = acked.map((row) => row.id);
    const rows = await manager.query(MARK_AND_SELECT_DUE_ROWS, [this.config.OUTBOX_BATCH_SIZE, [...ackedIds, ...inFlight], ackedIds]);
    this.metrics.published.inc(acked.length);
    return rows;
  }
}
