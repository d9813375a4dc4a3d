import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { failpoint } from '@app/failpoints';
import type { OutboxMessage } from './outbox-message.entity.js';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox-options.js';
import { OutboxMetrics } from './outbox.metrics.js';
import { OutboxPublisher } from './outbox.publisher.js';
import { endPublishSpans, startPublishSpans } from './outbox-publish-spans.js';
import { PublishDeadline } from './publish-deadline.js';
import { retryDelayMs } from '@app/backoff';

/**
 * One relay publishes at a time per database, whatever the number of replicas: each batch runs in
 * a transaction that first takes this transaction-scoped advisory lock, and a replica that does
 * not get it skips the batch. Why a leader and not parallel claims: per-aggregate order then
 * follows from reading rows in `seq` order, with no head-of-line bookkeeping, and a leader that
 * dies releases the lock with its connection. The cost, one publisher, is small next to Kafka's
 * batch throughput. See README, "The relay".
 */
const RELAY_LOCK = 'outbox_messages.relay';

/**
 * Due rows in commit order, skipping every aggregate whose earliest pending row is waiting out a
 * retry delay: a later event must never overtake an earlier one of the same aggregate.
 */
const SELECT_DUE_ROWS = `
  SELECT o.id, o.seq, o.aggregate_type AS "aggregateType", o.aggregate_id AS "aggregateId",
         o.message_type AS "messageType", o.topic, o.key, o.payload, o.headers, o.attempts
  FROM outbox_messages o
  WHERE o.published_at IS NULL
    AND o.next_attempt_at <= now()
    AND NOT EXISTS (
      SELECT 1 FROM outbox_messages earlier
      WHERE earlier.published_at IS NULL
        AND earlier.aggregate_type = o.aggregate_type
        AND earlier.aggregate_id = o.aggregate_id
        AND earlier.seq < o.seq
        AND earlier.next_attempt_at > now())
  ORDER BY o.seq
  LIMIT $1`;

export interface BatchResult {
  /** False when another relay holds the lock. */
  leader: boolean;
  selected: number;
  published: number;
  failed: number;
}

@Injectable()
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private inFlight: Promise<void> | undefined;
  private wakeRequested = false;
  private stopping = false;
  private readonly stopped = new AbortController();

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
    @Inject(OutboxMetrics) private readonly metrics: OutboxMetrics,
    @Inject(OUTBOX_CONFIG) private readonly config: OutboxConfig,
  ) {}

  /**
   * Asks for a cycle. Never overlaps: a wake-up during a cycle schedules exactly one more after it,
   * so a NOTIFY that raced the cycle's SELECT is never lost.
   */
  wake(): void {
    if (this.stopping) return;
    if (this.inFlight) {
      this.wakeRequested = true;
      return;
    }
    this.inFlight = this.loop().finally(() => {
      this.inFlight = undefined;
    });
  }

  /** Resolves when no cycle is running (the in-flight one finished). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /**
   * Stops accepting wake-ups, abandons the send in flight (its rows are retried later, a possible
   * duplicate that consumers dedupe) and awaits the cycle's commit: shutdown takes milliseconds,
   * whatever the broker does, and never leaves a batch half-marked.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    // Abandons a send in flight: its rows back off and the transaction ends now, not at the deadline.
    this.stopped.abort();
    await this.idle();
    await this.publisher.close();
  }

  private async loop(): Promise<void> {
    do {
      this.wakeRequested = false;
      try {
        await this.runCycle();
      } catch (error) {
        this.logger.error(`Relay cycle failed: ${(error as Error).message}`);
      }
    } while (this.wakeRequested && !this.stopping);
  }

  /** Publishes due rows batch after batch while batches come back full, up to a per-cycle cap. */
  async runCycle(): Promise<void> {
    const endTimer = this.metrics.cycleDuration.startTimer();
    let attempted = 0;
    let moreDue = false;
    for (let batch = 0; batch < this.config.OUTBOX_MAX_BATCHES_PER_CYCLE && !this.stopping; batch += 1) {
      const result = await this.publishBatch();
      attempted += result.selected;
      moreDue = result.leader && result.selected === this.config.OUTBOX_BATCH_SIZE && result.failed === 0;
      if (!moreDue) break;
    }
    // The cap ends a cycle, not the drain: after a full last batch more rows are due now, and
    // without this they would wait for the next NOTIFY or poll tick (OUTBOX_POLL_INTERVAL_MS).
    if (moreDue) this.wakeRequested = true;
    if (attempted > 0) endTimer();
  }

  /** Lock, read due rows, publish, mark: all in one transaction, committed after the broker's ack. */
  async publishBatch(): Promise<BatchResult> {
    return this.dataSource.transaction(async (manager) => {
      const [{ leader }] = await manager.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS leader', [RELAY_LOCK]);
      if (!leader) return { leader: false, selected: 0, published: 0, failed: 0 };
      const rows: OutboxMessage[] = await manager.query(SELECT_DUE_ROWS, [this.config.OUTBOX_BATCH_SIZE]);
      if (rows.length === 0) return { leader: true, selected: 0, published: 0, failed: 0 };

      await failpoint('relay.after-claim-before-publish');
      const deadline = new PublishDeadline(Date.now() + this.config.OUTBOX_PUBLISH_TIMEOUT_MS, this.stopped.signal);
      const spans = startPublishSpans(rows);
      const outcome = await this.publisher.publish(rows, deadline).catch((error: unknown) => {
        endPublishSpans(spans, { published: [], failed: rows.map((row) => ({ row, error: error as Error })) });
        throw error;
      });
      endPublishSpans(spans, outcome);
      // A crash here republishes these rows with the same message-id: at-least-once, by design.
      await failpoint('relay.after-publish-before-mark');

      await this.markPublished(manager, outcome.published);
      await this.scheduleRetries(manager, outcome.failed);
      return { leader: true, selected: rows.length, published: outcome.published.length, failed: outcome.failed.length };
    });
  }

  private async markPublished(manager: EntityManager, rows: OutboxMessage[]): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      'UPDATE outbox_messages SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY($1::uuid[])',
      [rows.map((row) => row.id)],
    );
    this.metrics.published.inc(rows.length);
  }

  private async scheduleRetries(manager: EntityManager, failures: { row: OutboxMessage; error: Error }[]): Promise<void> {
    for (const { row, error } of failures) {
      const delayMs = retryDelayMs(row.attempts + 1, this.config.OUTBOX_RETRY_BASE_MS, this.config.OUTBOX_RETRY_MAX_MS);
      await manager.query(
        `UPDATE outbox_messages
         SET attempts = attempts + 1, last_error = $2, next_attempt_at = now() + make_interval(secs => $3::float / 1000)
         WHERE id = $1`,
        [row.id, `${error.name}: ${error.message}`.slice(0, 2000), delayMs],
      );
    }
    if (failures.length > 0) {
      this.metrics.publishFailures.inc(failures.length);
      this.logger.warn(`${failures.length} outbox row(s) failed to publish (${failures[0].error.message}); retrying with backoff`);
    }
  }
}
