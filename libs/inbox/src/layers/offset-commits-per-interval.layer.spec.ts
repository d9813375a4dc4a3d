import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { EachBatchPayload, OffsetsByTopicPartition } from 'kafkajs';
import { OffsetCommitsPerInterval } from './offset-commits-per-interval.layer.js';

/**
 * The cadence of offset commits, on a fake clock. No broker: the kafkajs batch payload is a
 * stand-in that keeps which offsets were resolved and which committed, as kafkajs' offset manager
 * does (the commits against real Kafka: the inbox e2e specs that wait for the committed offset).
 */
describe('OffsetCommitsPerInterval', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  function consumer() {
    let resolved = -1;
    let committed = -1;
    const commits: { at: number; offset: number }[] = [];
    let failNext: (Error & { type?: string }) | undefined;
    let gate: Promise<void> | undefined;
    const offsets = (): OffsetsByTopicPartition =>
      resolved > committed ? { topics: [{ topic: 't', partitions: [{ partition: 0, offset: String(resolved + 1) }] }] } : { topics: [] };
    const payload = {
      uncommittedOffsets: offsets,
      commitOffsetsIfNecessary: async (given?: OffsetsByTopicPartition) => {
        const failure = failNext;
        failNext = undefined;
        if (gate) await gate;
        if (failure) throw failure;
        const offset = Number(given!.topics[0].partitions[0].offset) - 1;
        commits.push({ at: performance.now(), offset });
        committed = offset;
      },
    } as unknown as EachBatchPayload;
    return {
      payload,
      commits,
      /** A batch up to `offset` handled and resolved. */
      handled: (offset: number) => {
        resolved = offset;
        return payload;
      },
      failNextCommit: (type?: string) => (failNext = Object.assign(new Error(type ?? 'The coordinator is loading'), { type })),
      /** Holds every commit until the returned function is called, as a commit waiting for a coordinator election. */
      holdCommits: () => {
        let release = () => undefined as void;
        gate = new Promise<void>((resolve) => (release = resolve));
        return () => {
          gate = undefined;
          release();
        };
      },
    };
  }

  it('when batches come faster than the interval, then the first commits at once and the rest go in one commit per interval, the last in a trailing one', async () => {
    jest.useFakeTimers({ now: 0 });
    const warnings: string[] = [];
    const commits = new OffsetCommitsPerInterval(100, (line) => warnings.push(line));
    const kafka = consumer();
    await commits.afterBatch(kafka.handled(0));
    for (let offset = 1; offset <= 15; offset += 1) {
      await jest.advanceTimersByTimeAsync(10);
      await commits.afterBatch(kafka.handled(offset));
    }
    await jest.advanceTimersByTimeAsync(200);
    expect(kafka.commits).toEqual([
      { at: 0, offset: 0 },
      { at: 100, offset: 9 },
      { at: 200, offset: 15 },
    ]);
    expect(warnings).toEqual([]);
  });

  it('when a batch comes after a quiet spell, then it is committed at once', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new OffsetCommitsPerInterval(100, () => undefined);
    const kafka = consumer();
    await commits.afterBatch(kafka.handled(0));
    await jest.advanceTimersByTimeAsync(5000);
    await commits.afterBatch(kafka.handled(1));
    expect(kafka.commits).toEqual([
      { at: 0, offset: 0 },
      { at: 5000, offset: 1 },
    ]);
  });

  it('when the interval is 0, then every batch is committed as it is handled, as kafkajs does', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new OffsetCommitsPerInterval(0, () => undefined);
    const kafka = consumer();
    for (let offset = 0; offset < 3; offset += 1) {
      await commits.afterBatch(kafka.handled(offset));
      await jest.advanceTimersByTimeAsync(1);
    }
    expect(kafka.commits.map(({ offset }) => offset)).toEqual([0, 1, 2]);
  });

  it('when the consumer closes with offsets not committed, then flush commits them at once and no trailing commit follows', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new OffsetCommitsPerInterval(100, () => undefined);
    const kafka = consumer();
    await commits.afterBatch(kafka.handled(0));
    await jest.advanceTimersByTimeAsync(10);
    await commits.afterBatch(kafka.handled(1));
    await commits.flush();
    await jest.advanceTimersByTimeAsync(1000);
    expect(kafka.commits).toEqual([
      { at: 0, offset: 0 },
      { at: 10, offset: 1 },
    ]);
  });

  it('when a trailing commit fails, then it is reported and what it left is committed an interval later, with what came meanwhile', async () => {
    jest.useFakeTimers({ now: 0 });
    const warnings: string[] = [];
    const commits = new OffsetCommitsPerInterval(100, (line) => warnings.push(line));
    const kafka = consumer();
    await commits.afterBatch(kafka.handled(0));
    await jest.advanceTimersByTimeAsync(10);
    await commits.afterBatch(kafka.handled(1));
    kafka.failNextCommit();
    await jest.advanceTimersByTimeAsync(100);
    expect(warnings).toEqual(['offset commit failed (The coordinator is loading); the next commit carries it']);
    await jest.advanceTimersByTimeAsync(50);
    await commits.afterBatch(kafka.handled(2));
    await jest.advanceTimersByTimeAsync(100);
    expect(kafka.commits).toEqual([
      { at: 0, offset: 0 },
      { at: 200, offset: 2 },
    ]);
  });

  it('when a commit waits for a coordinator election, then batches go on meanwhile, no second commit starts, and the next carries what they resolved', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new OffsetCommitsPerInterval(100, () => undefined);
    const kafka = consumer();
    const release = kafka.holdCommits();
    await commits.afterBatch(kafka.handled(0));
    for (let offset = 1; offset <= 5; offset += 1) {
      await jest.advanceTimersByTimeAsync(100);
      // Each batch returns though the commit before it has no answer yet.
      await commits.afterBatch(kafka.handled(offset));
    }
    expect(kafka.commits).toEqual([]);
    release();
    await jest.advanceTimersByTimeAsync(0);
    expect(kafka.commits).toEqual([
      { at: 500, offset: 0 },
      { at: 500, offset: 5 },
    ]);
  });

  it.each(['REBALANCE_IN_PROGRESS', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID', 'NOT_COORDINATOR_FOR_GROUP'])(
    'when a commit fails with %s, then the next batch throws it (kafkajs rejoins) and nothing is committed for the generation left',
    async (type) => {
      jest.useFakeTimers({ now: 0 });
      const warnings: string[] = [];
      const commits = new OffsetCommitsPerInterval(100, (line) => warnings.push(line));
      const kafka = consumer();
      kafka.failNextCommit(type);
      await commits.afterBatch(kafka.handled(0));
      await jest.advanceTimersByTimeAsync(1000);
      expect(kafka.commits).toEqual([]);
      await expect(commits.afterBatch(kafka.handled(1))).rejects.toMatchObject({ type });
      // Once thrown it is spent: the batch after the rejoin commits as usual.
      await commits.afterBatch(kafka.handled(2));
      expect(kafka.commits).toEqual([{ at: 1000, offset: 2 }]);
      expect(warnings).toEqual([]);
    },
  );

  it('when the group was rejoined before the failed commit is thrown, then the stale failure is dropped and no second rejoin follows', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new OffsetCommitsPerInterval(100, () => undefined);
    const kafka = consumer();
    const release = kafka.holdCommits();
    kafka.failNextCommit('ILLEGAL_GENERATION');
    await commits.afterBatch(kafka.handled(0));
    commits.rejoined(); // the heartbeat learnt of the rebalance first, and kafkajs rejoined
    release();
    await jest.advanceTimersByTimeAsync(1000);
    await expect(commits.afterBatch(kafka.handled(1))).resolves.toBeUndefined();
    expect(kafka.commits).toEqual([{ at: 1000, offset: 1 }]);
  });

  it('when nothing is left uncommitted, then no trailing commit is scheduled', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new OffsetCommitsPerInterval(100, () => undefined);
    const kafka = consumer();
    await commits.afterBatch(kafka.handled(0));
    await jest.advanceTimersByTimeAsync(10);
    await commits.afterBatch(kafka.payload); // a batch of duplicates only: nothing new resolved
    await jest.advanceTimersByTimeAsync(1000);
    expect(kafka.commits).toEqual([{ at: 0, offset: 0 }]);
  });
});
