import { Logger } from '@nestjs/common';
import type pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { OutboxMessage } from '../storage/outbox-message.entity.js';
import type { OutboxConfig } from '../outbox.config.js';
import type { OutboxMetrics } from '../ops/outbox.metrics.js';
import { withPublishSpans } from '../ops/publish.spans.js';
import type { OutboxPublisher, PublishOutcome } from '../transport/outbox.publisher.js';
import { PublishDeadline } from '../transport/publish.deadline.js';
import { retryDelayMs } from './retry-delay.policy.js';

/**
 * One relay publishes at a time per database, whatever the number of replicas: each transaction
 * first takes this transaction-scoped advisory lock, and a replica that does not get it skips.
 * Why a leader and not parallel claims: per-aggregate order then follows from reading rows in
 * `seq` order, with no head-of-line bookkeeping, and a leader that dies releases the lock with its
 * connection. The cost, one publisher, is small next to Kafka's batch throughput.
 */
const TAKE_LEADER_LOCK = `SELECT pg_try_advisory_xact_lock(hashtext('outbox_messages.relay')) AS leader`;

/**
 * Due rows in commit order, skipping every aggregate whose earliest pending row is waiting out a
 * retry delay: a later event must never overtake an earlier one of the same aggregate, and other
 * aggregates go on. `$2`: ids not to read again (rows read but not yet marked).
 * The delayed aggregates come first, from the pending-retry index: usually none, so the read costs
 * the batch it returns, not the table (a correlated NOT EXISTS let the planner scan the whole table).
 */
export const SELECT_DUE_ROWS = `
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

/** What marking acknowledged rows writes; `ids` is the parameter that holds their ids. */
export const markPublished = (ids: string) =>
  `UPDATE outbox_messages SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY(${ids}::uuid[])`;

/** A failed row: one more attempt, its error, and its next attempt after the backoff. */
const SCHEDULE_RETRIES = `
  UPDATE outbox_messages o
  SET attempts = o.attempts + 1, last_error = f.error, next_attempt_at = now() + make_interval(secs => f.delay_ms / 1000)
  FROM unnest($1::uuid[], $2::text[], $3::float8[]) AS f(id, error, delay_ms)
  WHERE o.id = f.id`;

/**
 * The relay's steps, each one statement or one send. Raw SQL: it is the hot path, and the ORM's
 * entity mapping would add nothing but cost. Used in order by {@link OutboxRelay} (one batch per
 * transaction) and by the read-ahead layer (several, pipelined).
 */
export class RelaySteps {
  private readonly logger = new Logger('OutboxRelay');

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: OutboxPublisher,
    private readonly metrics: OutboxMetrics,
    private readonly config: OutboxConfig,
    /** Statements sent with `START TRANSACTION` (the relaxed-commit layer's setting). */
    private readonly transactionSettings: readonly string[],
  ) {}

  /**
   * Runs `work` in a transaction that holds the leader lock, or returns undefined when another
   * relay holds it. `START TRANSACTION`, the settings and the lock go as one simple query: one
   * round trip (it has no parameters, so the protocol allows several statements).
   */
  async inLeaderTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T | undefined> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as pg.PoolClient;
    try {
      const begin = ['START TRANSACTION', ...this.transactionSettings, TAKE_LEADER_LOCK].join('; ');
      const results = (await client.query(begin)) as unknown as pg.QueryResult<{ leader: boolean }>[];
      if (!results[results.length - 1].rows[0].leader) {
        await client.query('ROLLBACK');
        return undefined;
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

  /** Up to `OUTBOX_BATCH_SIZE` due rows in `seq` order, none of `exclude`. */
  readDueRows(manager: EntityManager, exclude: string[] = []): Promise<OutboxMessage[]> {
    return manager.query(SELECT_DUE_ROWS, [this.config.OUTBOX_BATCH_SIZE, exclude]);
  }

  /**
   * Sends the rows and awaits Kafka's answer, for at most `OUTBOX_PUBLISH_TIMEOUT_MS` (the lock and
   * the transaction are held meanwhile); `signal` (the relay stopping) abandons the send at once.
   */
  send(rows: OutboxMessage[], signal: AbortSignal): Promise<PublishOutcome> {
    const deadline = new PublishDeadline(Date.now() + this.config.OUTBOX_PUBLISH_TIMEOUT_MS, signal);
    return withPublishSpans(rows, () => this.publisher.publish(rows, deadline));
  }

  /** Marks rows Kafka acknowledged; visible to others only when the transaction commits. */
  async markPublished(manager: EntityManager, rows: OutboxMessage[]): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(markPublished('$1'), [rows.map((row) => row.id)]);
    this.metrics.published.inc(rows.length);
  }

  /** One statement for every failed row: each backs off (see {@link retryDelayMs}); its aggregate waits behind it. */
  async scheduleRetries(manager: EntityManager, failures: PublishOutcome['failed']): Promise<void> {
    if (failures.length === 0) return;
    await manager.query(SCHEDULE_RETRIES, [
      failures.map(({ row }) => row.id),
      failures.map(({ error }) => `${error.name}: ${error.message}`.slice(0, 2000)),
      failures.map(({ row, error }) => retryDelayMs(row, error, this.config)),
    ]);
    this.metrics.publishFailures.inc(failures.length);
    this.logger.warn(`${failures.length} outbox row(s) failed to publish (${failures[0].error.message}); retrying with backoff`);
  }
}
