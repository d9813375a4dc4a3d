import type { EachBatchPayload } from 'kafkajs';

/**
 * When the offsets the inbox resolved go to Kafka (the consumer runs with `autoCommit: false`).
 * kafkajs on its own commits after every batch: at a moderate rate that is an OffsetCommit request
 * per record and per consumer, each a write to the broker's `__consumer_offsets` log, and a round
 * trip the partition's next fetch waits for.
 *
 * - After a batch, the offsets are committed at once when the last commit is `intervalMs` old: the
 *   first record after a quiet spell is committed as before.
 * - Under load, at most one commit per `intervalMs`: what was resolved meanwhile goes in the next
 *   one, or in a trailing commit `intervalMs` after the batch that left offsets uncommitted, so a
 *   quiet partition's last offsets are committed too.
 *
 * What it costs: a crash, or a rebalance that moves a partition, redelivers up to `intervalMs`
 * of records that were handled and committed in Postgres but not yet in Kafka; the inbox finds
 * their ids and skips them (the guarantee never rested on the offset: "offset after commit"
 * holds, since only committed records are resolved). 0 commits after every batch.
 */
export class PacedOffsetCommits {
  private trailing: NodeJS.Timeout | undefined;
  private latest: EachBatchPayload | undefined;
  private lastCommitAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly intervalMs: number,
    private readonly warn: (line: string) => void,
  ) {}

  /** The consumer's run options that hand the commits to this class. */
  runOptions(): { autoCommit: false } {
    return { autoCommit: false };
  }

  /** After a batch was handled: commits now if the interval passed (a failure is the batch's, as kafkajs' own commit's), else later. */
  async afterBatch(payload: EachBatchPayload): Promise<void> {
    this.latest = payload;
    const dueIn = this.lastCommitAt + this.intervalMs - performance.now();
    if (dueIn <= 0) return this.flush();
    if (this.trailing !== undefined || payload.uncommittedOffsets().topics.length === 0) return;
    this.trailing = setTimeout(() => {
      this.trailing = undefined;
      // A failed trailing commit (a rebalance, a coordinator move) is carried by the next batch's;
      // what it leaves uncommitted is at worst redelivered and skipped.
      this.flush().catch((error: Error) => this.warn(`trailing offset commit failed (${error.message}); the next commit carries it`));
    }, dueIn);
    // A pending commit never keeps a stopping process alive: on close, flush() runs first.
    this.trailing.unref();
  }

  /** Commits every resolved offset not committed yet: the paced and trailing commits, and the last one before the consumer leaves. */
  async flush(): Promise<void> {
    clearTimeout(this.trailing);
    this.trailing = undefined;
    const payload = this.latest;
    const offsets = payload?.uncommittedOffsets();
    if (payload === undefined || offsets === undefined || offsets.topics.length === 0) return;
    // Before the request: a batch handled while it is in flight waits for the next interval, not for this answer.
    this.lastCommitAt = performance.now();
    await payload.commitOffsetsIfNecessary(offsets);
  }
}
