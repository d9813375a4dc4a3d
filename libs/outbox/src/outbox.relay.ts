import { Inject, Injectable, Logger } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { retryDelayMs } from '@libs/backoff';
import { failpoint } from '@libs/failpoints';
import { OneRunAtATime } from '@libs/scheduling';
import type { OutboxMessage } from './outbox-message.entity.js';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox.config.js';
import { OutboxMetrics } from './outbox.metrics.js';
import { OutboxPublisher } from './outbox.publisher.js';
import { endPublishSpans, startPublishSpans } from './outbox-publish-spans.js';
import { isBrokerUnavailable } from './broker-unavailable.js';
import { isPartitionUnavailable } from './partition-unavailable.js';
import { isPublishDeadlineExceeded, PublishDeadline } from './publish-deadline.js';
import { RelayFailpoints } from './outbox.failpoints.js';

/**
 * One relay publishes at a time per database, whatever the number of replicas: each batch runs in
 * a transaction that first takes this transaction-scoped advisory lock, and a replica that does
 * not get it skips the batch. Why a leader and not parallel claims: per-aggregate order then
 * follows from reading rows in `seq` order, with no head-of-line bookkeeping, and a leader that
 * dies releases the lock with its connection. The cost, one publisher, is small next to Kafka's
 * batch throughput. See docs/outbox.md, "How the outbox closes the gap".
 */
const RELAY_LOCK = 'outbox_messages.relay';
/**
 * The start of every relay transaction, one round trip. `synchronous_commit = off` for the relay's
 * own transaction only: its commit does not wait for the WAL flush (a disk sync per transaction,
 * which is most of its cost on a small machine). What it risks is exactly what at-least-once
 * already allows: if Postgres itself crashes within the WAL writer's delay (200 ms by default),
 * the marks of the last transactions are lost and their rows, already on Kafka, are published again
 * with the same message-ids, which consumers dedupe. Nothing a relay transaction writes is needed
 * for anything but that (the outbox rows themselves are written, and flushed, by the business
 * transactions). See https://www.postgresql.org/docs/current/wal-async-commit.html.
 */
const BEGIN_AND_LOCK = `START TRANSACTION; SET LOCAL synchronous_commit = off; SELECT pg_try_advisory_xact_lock(hashtext('${RELAY_LOCK}')) AS leader`;

/**
 * Due rows in commit order, skipping every aggregate whose earliest pending row is waiting out a
 * retry delay: a later event must never overtake an earlier one of the same aggregate. `$2` are the
 * rows of the batch still in flight (read, not yet marked), which the read-ahead must not take again.
 *
 * The delayed aggregates come first, from the pending-retry index: usually none, so the read costs
 * the batch it returns, not the table. (Written as a correlated NOT EXISTS, the planner often chose
 * one scan of the whole table, published rows included, per batch, most of a read's time.)
 */
const SELECT_DUE_ROWS = `
  WITH delayed AS MATERIALIZED (
    SELECT aggregate_type, aggregate_id, min(seq) AS seq
    FROM outbox_messages
    WHERE published_at IS NULL AND next_attempt_at > now()
    GROUP BY aggregate_type, aggregate_id)
  SELECT o.id, o.seq, o.aggregate_type AS "aggregateType", o.aggregate_id AS "aggregateId",
         o.message_type AS "messageType", o.topic, o.key, o.payload, o.headers, o.attempts
  FROM outbox_messages o
  WHERE o.published_at IS NULL
    AND o.next_attempt_at <= now()
    AND o.id <> ALL($2::uuid[])
    AND NOT EXISTS (
      SELECT 1 FROM delayed d
      WHERE d.aggregate_type = o.aggregate_type AND d.aggregate_id = o.aggregate_id AND d.seq < o.seq)
  ORDER BY o.seq
  LIMIT $1`;

/** What marking acknowledged rows writes; `$n` holds their ids. One text for both statements that mark. */
const markPublished = (ids: string) =>
  `UPDATE outbox_messages SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY(${ids}::uuid[])`;

/**
 * The mark of the batch Kafka acknowledged last ($3) and the read of the batch to send after the
 * one now in flight, in one statement: one Postgres round trip per batch instead of two (a round trip costs Postgres and the relay CPU).
 * The UPDATE runs in a data-modifying CTE, whose changes the SELECT of the same statement does not
 * see (one snapshot), so the caller puts the marked ids in `$2` too: the rows just marked are
 * excluded by id, not by `published_at`. Per-key order is as in {@link SELECT_DUE_ROWS}: the marked
 * rows are all acked, and the rows read are still the next ones in `seq` order.
 */
const MARK_AND_SELECT_DUE_ROWS = `
  WITH marked AS (${markPublished('$3')} RETURNING id),
  ${SELECT_DUE_ROWS.trim().slice('WITH '.length)}`;

const MARK_PUBLISHED = markPublished('$1');

export interface BatchResult {
  /** False when another relay holds the lock. */
  leader: boolean;
  selected: number;
  published: number;
  failed: number;
}

/** What one relay transaction did, its batches added up. */
export interface TransactionResult extends BatchResult {
  /** Batches sent (a batch read ahead and then dropped is not counted). */
  batches: number;
  /** True when the transaction stopped at its batch cap on a full batch: more rows are due now. */
  moreDue: boolean;
}

@Injectable()
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  /**
   * One cycle at a time; a wake-up during a cycle gets one more after it; stop awaits the cycle.
   * Wake-ups linger (`OUTBOX_LINGER_MS`): under load, one cycle carries every commit of the linger.
   */
  private readonly cycles: OneRunAtATime;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxPublisher) private readonly publisher: OutboxPublisher,
    @Inject(OutboxMetrics) private readonly metrics: OutboxMetrics,
    @Inject(OUTBOX_CONFIG) private readonly config: OutboxConfig,
  ) {
    this.cycles = new OneRunAtATime(
      () => this.runCycle(),
      (error) => this.logger.error(`Relay cycle failed: ${error.message}`),
      { lingerMs: config.OUTBOX_LINGER_MS },
    );
  }

  /**
   * Asks for a cycle. Never overlaps: a wake-up during a cycle schedules exactly one more after it,
   * so a NOTIFY that raced the cycle's SELECT is never lost.
   */
  wake(): void {
    this.cycles.wake();
  }

  /** Resolves when no cycle is running (the in-flight one finished). */
  idle(): Promise<void> {
    return this.cycles.idle();
  }

  /** True once {@link stop} was called: a cycle ends after its current batch. */
  private get stopping(): boolean {
    return this.cycles.stopping;
  }

  /**
   * Stops accepting wake-ups, abandons the send in flight (its rows are retried later, a possible
   * duplicate that consumers dedupe) and awaits the cycle's commit: shutdown takes milliseconds,
   * whatever the broker does, and never leaves a batch half-marked.
   */
  async stop(): Promise<void> {
    // Aborts the cycles' signal, which abandons a send in flight (its PublishDeadline): its rows
    // back off and the transaction ends now, not at the deadline.
    await this.cycles.stop();
    await this.publisher.close();
  }

  /**
   * Publishes due rows batch after batch while batches come back full, up to a per-cycle cap, in
   * transactions of up to `OUTBOX_BATCHES_PER_TRANSACTION` batches.
   */
  async runCycle(): Promise<void> {
    const endTimer = this.metrics.cycleDuration.startTimer();
    let attempted = 0;
    let batches = 0;
    let moreDue = false;
    while (batches < this.config.OUTBOX_MAX_BATCHES_PER_CYCLE && !this.stopping) {
      const result = await this.publishBatches(
        Math.min(this.config.OUTBOX_BATCHES_PER_TRANSACTION, this.config.OUTBOX_MAX_BATCHES_PER_CYCLE - batches),
      );
      attempted += result.selected;
      batches += result.batches;
      moreDue = result.leader && result.moreDue;
      if (!moreDue) break;
    }
    // The cap ends a cycle, not the drain: after a full last batch more rows are due now, and
    // without this they would wait for the next NOTIFY or poll tick (OUTBOX_POLL_INTERVAL_MS).
    // Only from inside a woken cycle: a direct call (a test, the bench) asks for no cycle after it.
    // `now`: a backlog drains back to back; the linger is for wake-ups, not for rows already due.
    if (moreDue && this.cycles.running) this.cycles.wake({ now: true });
    if (attempted > 0) endTimer();
  }

  /** One batch in its own transaction: lock, read due rows, publish, mark, commit after the broker's ack. */
  async publishBatch(): Promise<BatchResult> {
    const { leader, selected, published, failed } = await this.publishBatches(1);
    return { leader, selected, published, failed };
  }

  /**
   * Up to `maxBatches` batches in one transaction under one advisory lock, pipelined: while Kafka
   * acknowledges batch k, Postgres marks batch k-1 and reads batch k+1 (one statement), so the relay's Postgres
   * work hides behind the broker's round trip instead of adding to it (the serial
   * lock-read-send-mark-commit ran at 0.4-0.56x a bare producer; the read alone took as long as
   * a send).
   *
   * Why per-key order still holds: the lock is held for the whole transaction, so no other relay
   * publishes meanwhile; batch k+1 is read in `seq` order excluding batch k's rows, and it is sent
   * only after batch k is acknowledged in full. If any row of batch k fails, batch k+1 is dropped
   * unsent (its rows stay pending and are read again next cycle, behind the failed rows' retry
   * delay), so a later event of an aggregate never overtakes its failed earlier one. Rows are
   * still marked only after their own ack, and only the commit makes the marks visible: a crash
   * anywhere republishes every batch of the transaction with the same message-ids (at-least-once;
   * consumers dedupe), which is what a larger `OUTBOX_BATCHES_PER_TRANSACTION` costs.
   */
  async publishBatches(maxBatches: number): Promise<TransactionResult> {
    return this.inRelayTransaction(async (manager) => {
      const total: TransactionResult = { leader: true, selected: 0, published: 0, failed: 0, batches: 0, moreDue: false };
      const batchSize = this.config.OUTBOX_BATCH_SIZE;
      let rows = await this.dueRows(manager, [], []);
      // Acknowledged by Kafka, not yet marked: marked by the statement that reads the batch after
      // the next one, which runs while the next one is on its way to Kafka.
      let acked: OutboxMessage[] = [];
      while (rows.length > 0) {
        total.batches += 1;
        total.selected += rows.length;
        const full = rows.length === batchSize;
        const readAhead = full && total.batches < maxBatches && !this.stopping;
        await failpoint(RelayFailpoints.afterClaimBeforePublish);
        const deadline = new PublishDeadline(Date.now() + this.config.OUTBOX_PUBLISH_TIMEOUT_MS, this.cycles.signal);
        const inFlight = rows.map((row) => row.id);
        const previous = acked;
        acked = [];
        const next = readAhead
          ? this.dueRows(manager, previous, inFlight)
          : this.markPublished(manager, previous).then(() => [] as OutboxMessage[]);
        // allSettled, not all: a failed read must not end the transaction while a send is still in
        // flight, or the next cycle could start a second concurrent send on the idempotent producer.
        const spans = startPublishSpans(rows);
        const send = this.publisher.publish(rows, deadline).then(
          (outcome) => {
            endPublishSpans(spans, outcome);
            return outcome;
          },
          (error: unknown) => {
            endPublishSpans(spans, { published: [], failed: rows.map((row) => ({ row, error: error as Error })) });
            throw error;
          },
        );
        const [sent, read] = await Promise.allSettled([send, next]);
        if (sent.status === 'rejected') throw sent.reason;
        if (read.status === 'rejected') throw read.reason;
        const outcome = sent.value;
        // A crash here republishes these rows with the same message-id: at-least-once, by design.
        await failpoint(RelayFailpoints.afterPublishBeforeMark);
        total.published += outcome.published.length;
        total.failed += outcome.failed.length;
        acked = outcome.published;
        if (outcome.failed.length > 0) {
          await this.markPublished(manager, acked);
          await this.scheduleRetries(manager, outcome.failed);
          return total;
        }
        if (this.stopping) break;
        if (!readAhead) {
          total.moreDue = full;
          break;
        }
        rows = read.value;
      }
      await this.markPublished(manager, acked);
      return total;
    });
  }

  /**
   * Runs `work` in a transaction that holds {@link RELAY_LOCK}, or returns "not leader" when
   * another relay holds it. `BEGIN` and the lock go to Postgres as one simple query, one round trip
   * instead of two; the statement has no parameters, so the protocol allows it.
   */
  private async inRelayTransaction(work: (manager: EntityManager) => Promise<TransactionResult>): Promise<TransactionResult> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as pg.PoolClient;
    try {
      const [lock] = ((await client.query(BEGIN_AND_LOCK)) as unknown as pg.QueryResult<{ leader: boolean }>[]).slice(-1);
      if (!lock.rows[0].leader) {
        await client.query('ROLLBACK');
        return { leader: false, selected: 0, published: 0, failed: 0, batches: 0, moreDue: false };
      }
      const result = await work(runner.manager);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A broken connection fails this too; the runner then hands it back to the pool as broken.
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * Raw SQL, as every relay statement: it is the hot path, and the ORM's entity mapping would add
   * nothing but cost. Marks `acked` in the same statement when there are any.
   */
  private async dueRows(manager: EntityManager, acked: OutboxMessage[], inFlight: string[]): Promise<OutboxMessage[]> {
    if (acked.length === 0) return manager.query(SELECT_DUE_ROWS, [this.config.OUTBOX_BATCH_SIZE, inFlight]);
    const ackedIds = acked.map((row) => row.id);
    const rows = await manager.query(MARK_AND_SELECT_DUE_ROWS, [this.config.OUTBOX_BATCH_SIZE, [...ackedIds, ...inFlight], ackedIds]);
    this.metrics.published.inc(acked.length);
    return rows;
  }

  private async markPublished(manager: EntityManager, rows: OutboxMessage[]): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(MARK_PUBLISHED, [rows.map((row) => row.id)]);
    this.metrics.published.inc(rows.length);
  }

  /**
   * One statement for every failed row. A row whose error says the partition or the cluster is
   * unavailable (a leader change, a dead broker not yet fenced, too few in-sync replicas, no answer
   * before the publish deadline) retries
   * within `OUTBOX_UNAVAILABLE_RETRY_MAX_MS`: that state ends when the controller fences the broker,
   * and a row must not then wait out the exponential backoff it built up while the leader was gone
   * (the ~20 s stall the chaos soak saw when a leader was killed). Other failures back off up to `OUTBOX_RETRY_MAX_MS`.
   */
  private async scheduleRetries(manager: EntityManager, failures: { row: OutboxMessage; error: Error }[]): Promise<void> {
    if (failures.length === 0) return;
    const delays = failures.map(({ row, error }) => this.retryDelay(row, error));
    await manager.query(
      `UPDATE outbox_messages o
       SET attempts = o.attempts + 1, last_error = f.error, next_attempt_at = now() + make_interval(secs => f.delay_ms / 1000)
       FROM unnest($1::uuid[], $2::text[], $3::float8[]) AS f(id, error, delay_ms)
       WHERE o.id = f.id`,
      [failures.map(({ row }) => row.id), failures.map(({ error }) => `${error.name}: ${error.message}`.slice(0, 2000)), delays],
    );
    this.metrics.publishFailures.inc(failures.length);
    this.logger.warn(`${failures.length} outbox row(s) failed to publish (${failures[0].error.message}); retrying with backoff`);
  }

  private retryDelay(row: OutboxMessage, error: Error): number {
    const transient = isPartitionUnavailable(error) || isBrokerUnavailable(error) || isPublishDeadlineExceeded(error);
    const max = transient
      ? Math.min(this.config.OUTBOX_UNAVAILABLE_RETRY_MAX_MS, this.config.OUTBOX_RETRY_MAX_MS)
      : this.config.OUTBOX_RETRY_MAX_MS;
    return retryDelayMs(row.attempts + 1, this.config.OUTBOX_RETRY_BASE_MS, max);
  }
}
