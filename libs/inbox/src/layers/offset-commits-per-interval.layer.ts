import type { EachBatchPayload } from 'kafkajs';
import type { SpeedUpLayer } from '@libs/config';

/**
 * kafkajs' error types that mean this member's place in its group is gone or moving: its runner
 * rejoins the group when one of them reaches it from a batch.
 */
const GROUP_MEMBERSHIP_ERRORS = new Set(['REBALANCE_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID']);

/**
 * Speed-up layer: at most one offset commit per `INBOX_COMMIT_INTERVAL_MS`, beside the fetch loop.
 *
 * What it changes: kafkajs on its own (the core's way, `autoCommit`) commits the resolved offsets
 * after every batch: at a moderate rate an OffsetCommit request per record and per consumer, each
 * a write to the broker's `__consumer_offsets` log and a round trip the partition's next fetch
 * waits for. With this layer (the consumer runs with `autoCommit: false`):
 * - after a batch, the offsets are committed at once when the last commit is an interval old: the
 *   first record after a quiet spell is committed as before;
 * - under load, at most one commit per interval carries what was resolved meanwhile, and a trailing
 *   commit an interval after the last covers a partition that went quiet (also after a failure);
 * - a commit never holds a batch: it runs beside the fetch loop, one at a time, so a group
 *   coordinator being elected again (its broker died) stalls no partition whose leader is alive.
 *   A commit that fails because the member's place in the group moved (a rebalance) is thrown from
 *   the next batch, so kafkajs rejoins as it would after its own commit.
 * What it costs: a crash, or a rebalance that moves a partition, redelivers up to an interval of
 * records already committed in Postgres (more while a coordinator is elected); the inbox skips
 * them as duplicates. "Offset after commit" still holds: only committed records are resolved.
 * Why: OffsetCommit requests per order fell by 80-85 %, see
 * docs/decisions/0203-offset-commits-per-interval.md.
 * Off: `INBOX_OFFSET_COMMITS_PER_INTERVAL_ENABLED=false` (kafkajs commits after every batch).
 */
export const offsetCommitsPerInterval: SpeedUpLayer = {
  name: 'offset-commits-per-interval',
  pattern: 'inbox',
  switch: 'INBOX_OFFSET_COMMITS_PER_INTERVAL_ENABLED',
  changes: 'Offsets are committed at most once per INBOX_COMMIT_INTERVAL_MS, beside the fetch loop, instead of after every batch.',
  costs: 'A crash or a rebalance redelivers up to an interval of records already handled, which the inbox skips as duplicates.',
  decision: 'docs/decisions/0203-offset-commits-per-interval.md',
};

/** The layer itself: holds the latest batch's resolved offsets and commits them on its own clock. */
export class OffsetCommitsPerInterval {
  private trailing: NodeJS.Timeout | undefined;
  private latest: EachBatchPayload | undefined;
  private lastCommitAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  private lostMembership: Error | undefined;
  /** Counts the group joins, so that a commit that failed for a generation already left behind throws nothing. */
  private generation = 0;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly warn: (line: string) => void,
  ) {}

  /** The consumer's run options that hand the commits to this class. */
  runOptions(): { autoCommit: false } {
    return { autoCommit: false };
  }

  /**
   * After a batch was handled: commits now if the interval passed and no commit is under way, else
   * later. Throws what an earlier commit learnt of the group (a rebalance), for kafkajs to rejoin.
   */
  afterBatch(payload: EachBatchPayload): Promise<void> {
    this.latest = payload;
    const lost = this.lostMembership;
    this.lostMembership = undefined;
    if (lost !== undefined) return Promise.reject(lost);
    this.schedule();
    return Promise.resolve();
  }

  /** The consumer joined its group (again): what an earlier commit learnt of the old generation is stale. */
  rejoined(): void {
    this.generation += 1;
    this.lostMembership = undefined;
  }

  /** The last commit, before the consumer leaves its group: what is under way, then every resolved offset not committed yet. */
  async flush(): Promise<void> {
    this.stopped = true;
    this.clearTrailing();
    await this.inFlight;
    this.clearTrailing();
    const payload = this.latest;
    const offsets = payload?.uncommittedOffsets();
    if (payload === undefined || offsets === undefined || offsets.topics.length === 0) return;
    await payload.commitOffsetsIfNecessary(offsets);
  }

  /** A commit now, or a trailing one when the interval is not over; none while one is under way (it schedules the next when it ends). */
  private schedule(): void {
    if (this.stopped || this.inFlight !== undefined || this.trailing !== undefined) return;
    if (this.latest === undefined || this.latest.uncommittedOffsets().topics.length === 0) return;
    const dueIn = this.lastCommitAt + this.intervalMs - performance.now();
    if (dueIn <= 0) return this.start(this.latest);
    this.trailing = setTimeout(() => {
      this.trailing = undefined;
      if (this.latest !== undefined && !this.stopped) this.start(this.latest);
    }, dueIn);
    // A pending commit never keeps a stopping process alive: on close, flush() runs first.
    this.trailing.unref();
  }

  private start(payload: EachBatchPayload): void {
    const offsets = payload.uncommittedOffsets();
    if (offsets.topics.length === 0) return;
    // Before the request: a batch handled while it is in flight waits for the next interval, not for this answer.
    this.lastCommitAt = performance.now();
    const generation = this.generation;
    this.inFlight = payload
      .commitOffsetsIfNecessary(offsets)
      .then(
        () => true,
        (error: Error & { type?: string }) => this.failed(error, payload, generation),
      )
      .then((again) => {
        this.inFlight = undefined;
        if (again) this.schedule();
      });
  }

  /** Whether to commit again what a failed commit left; a lost place in the group goes to the next batch instead. */
  private failed(error: Error & { type?: string }, payload: EachBatchPayload, generation: number): boolean {
    if (error.type === undefined || !GROUP_MEMBERSHIP_ERRORS.has(error.type)) {
      this.warn(`offset commit failed (${error.message}); the next commit carries it`);
      return true;
    }
    if (generation === this.generation) this.lostMembership = error;
    // The first batch after the rejoin commits these offsets in the new generation; this payload
    // would commit them in the one the group has left.
    if (this.latest === payload) this.latest = undefined;
    return false;
  }

  private clearTrailing(): void {
    clearTimeout(this.trailing);
    this.trailing = undefined;
  }
}
