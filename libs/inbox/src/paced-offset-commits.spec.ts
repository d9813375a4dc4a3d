import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { EachBatchPayload, OffsetsByTopicPartition } from 'kafkajs';
import { PacedOffsetCommits } from './paced-offset-commits.js';

/**
 * The cadence of offset commits, on a fake clock. No broker: the kafkajs batch payload is a
 * stand-in that keeps which offsets were resolved and which committed, as kafkajs' offset manager
 * does (the commits against real Kafka: the inbox e2e specs that wait for the committed offset).
 */
describe('PacedOffsetCommits', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  function consumer() {
    let resolved = -1;
    let committed = -1;
    const commits: { at: number; offset: number }[] = [];
    let failNext = false;
    const offsets = (): OffsetsByTopicPartition =>
      resolved > committed ? { topics: [{ topic: 't', partitions: [{ partition: 0, offset: String(resolved + 1) }] }] } : { topics: [] };
    const payload = {
      uncommittedOffsets: offsets,
      commitOffsetsIfNecessary: async (given?: OffsetsByTopicPartition) => {
        if (failNext) {
          failNext = false;
          throw new Error('The coordinator is loading');
        }
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
      failNextCommit: () => (failNext = true),
    };
  }

  it('when batches come faster than the interval, then the first commits at once and the rest go in one commit per interval, the last in a trailing one', async () => {
    jest.useFakeTimers({ now: 0 });
    const warnings: string[] = [];
    const commits = new PacedOffsetCommits(100, (line) => warnings.push(line));
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
    const commits = new PacedOffsetCommits(100, () => undefined);
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
    const commits = new PacedOffsetCommits(0, () => undefined);
    const kafka = consumer();
    for (let offset = 0; offset < 3; offset += 1) await commits.afterBatch(kafka.handled(offset));
    expect(kafka.commits.map(({ offset }) => offset)).toEqual([0, 1, 2]);
  });

  it('when the consumer closes with offsets not committed, then flush commits them at once and no trailing commit follows', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new PacedOffsetCommits(100, () => undefined);
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

  it('when a trailing commit fails, then it is reported and the next batch commits what it left', async () => {
    jest.useFakeTimers({ now: 0 });
    const warnings: string[] = [];
    const commits = new PacedOffsetCommits(100, (line) => warnings.push(line));
    const kafka = consumer();
    await commits.afterBatch(kafka.handled(0));
    await jest.advanceTimersByTimeAsync(10);
    await commits.afterBatch(kafka.handled(1));
    kafka.failNextCommit();
    await jest.advanceTimersByTimeAsync(100);
    expect(warnings).toEqual(['trailing offset commit failed (The coordinator is loading); the next commit carries it']);
    await jest.advanceTimersByTimeAsync(100);
    await commits.afterBatch(kafka.handled(2));
    expect(kafka.commits).toEqual([
      { at: 0, offset: 0 },
      { at: 210, offset: 2 },
    ]);
  });

  it('when nothing is left uncommitted, then no trailing commit is scheduled', async () => {
    jest.useFakeTimers({ now: 0 });
    const commits = new PacedOffsetCommits(100, () => undefined);
    const kafka = consumer();
    await commits.afterBatch(kafka.handled(0));
    await jest.advanceTimersByTimeAsync(10);
    await commits.afterBatch(kafka.payload); // a batch of duplicates only: nothing new resolved
    await jest.advanceTimersByTimeAsync(1000);
    expect(kafka.commits).toEqual([{ at: 0, offset: 0 }]);
  });
});
