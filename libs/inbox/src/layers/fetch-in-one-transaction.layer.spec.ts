import { describe, expect, it } from '@jest/globals';
import type { InboxBatch, InboxOutcome } from '../core/inbox.batch.js';
import type { InboxRoute } from '../routing/inbox.route.js';
import { FetchInOneTransaction } from './fetch-in-one-transaction.layer.js';

/**
 * How batches handed over in one turn of the event loop are grouped. What a group's transaction
 * does is a stand-in that records its calls and answers one outcome per record: the real one is
 * proven against Postgres and Kafka in fetch-in-one-transaction.layer.int-spec.ts.
 */
describe('FetchInOneTransaction: gathering the batches of one fetch', () => {
  const routeA = { consumer: 'a' } as unknown as InboxRoute;
  const routeB = { consumer: 'b' } as unknown as InboxRoute;

  function batch(partition: number, records: number): InboxBatch {
    return {
      topic: 't',
      partition,
      records: Array.from({ length: records }, (_, index) => ({
        topic: 't',
        partition,
        offset: String(index),
        key: null,
        value: null,
        headers: {},
      })),
      resolve: () => undefined,
      heartbeat: async () => undefined,
      isActive: () => true,
      retryLater: () => undefined,
    };
  }

  /** `fail` makes every batch reject; `failPartition` only the promise of that partition's batch. */
  function layerStandIn(fail?: Error, failPartition?: number) {
    const calls: { partitions: number[]; route: InboxRoute }[] = [];
    const outcomesOf = async (one: InboxBatch): Promise<InboxOutcome[]> => {
      if (fail) throw fail;
      if (one.partition === failPartition) throw new Error(`partition ${one.partition} failed alone`);
      return one.records.map(() => 'processed');
    };
    /** The gathering as it is; what a group's transaction does is the stand-in's. */
    class RecordedGroups extends FetchInOneTransaction {
      override together(batches: readonly InboxBatch[], route: InboxRoute): Promise<InboxOutcome[]>[] {
        calls.push({ partitions: batches.map((one) => one.partition), route });
        return batches.map(outcomesOf);
      }
    }
    const unused = () => {
      throw new Error('not reached: together() is the stand-in');
    };
    const gathering = new RecordedGroups({ failedBefore: unused }, { run: unused }, unused, 100);
    return { gathering, calls };
  }

  it('when the batches of three partitions arrive in one turn, then they form one group, and each caller gets its own outcomes', async () => {
    const { gathering, calls } = layerStandIn();
    const results = await Promise.all([
      gathering.gather(batch(0, 1), routeA),
      gathering.gather(batch(1, 2), routeA),
      gathering.gather(batch(2, 3), routeA),
    ]);
    expect(calls).toEqual([{ partitions: [0, 1, 2], route: routeA }]);
    expect(results.map((outcomes) => outcomes.length)).toEqual([1, 2, 3]);
  });

  it('when batches of two routes arrive in one turn, then each route is its own group: a transaction never mixes handlers', async () => {
    const { gathering, calls } = layerStandIn();
    await Promise.all([
      gathering.gather(batch(0, 1), routeA),
      gathering.gather(batch(0, 1), routeB),
      gathering.gather(batch(1, 1), routeA),
    ]);
    expect(calls).toEqual([
      { partitions: [0, 1], route: routeA },
      { partitions: [0], route: routeB },
    ]);
  });

  it('when a batch arrives after the turn of the others, then it is handed over on its own and waits for none of them', async () => {
    const { gathering, calls } = layerStandIn();
    const first = gathering.gather(batch(0, 1), routeA);
    await new Promise((resolve) => setImmediate(resolve));
    const second = gathering.gather(batch(1, 1), routeA);
    await Promise.all([first, second]);
    expect(calls).toEqual([
      { partitions: [0], route: routeA },
      { partitions: [1], route: routeA },
    ]);
  });

  it('when one batch of a group fails alone (a rebalance found by its heartbeat), then only its caller rejects, and the others get their outcomes', async () => {
    const { gathering } = layerStandIn(undefined, 1);
    const results = await Promise.allSettled([
      gathering.gather(batch(0, 1), routeA),
      gathering.gather(batch(1, 1), routeA),
      gathering.gather(batch(2, 2), routeA),
    ]);
    expect(results).toEqual([
      { status: 'fulfilled', value: ['processed'] },
      { status: 'rejected', reason: new Error('partition 1 failed alone') },
      { status: 'fulfilled', value: ['processed', 'processed'] },
    ]);
  });

  it('when the inbox cannot write, then every batch handed over with it rejects with that error: no offset of them moves', async () => {
    const down = new Error('connection refused');
    const { gathering } = layerStandIn(down);
    const results = await Promise.allSettled([gathering.gather(batch(0, 1), routeA), gathering.gather(batch(1, 1), routeA)]);
    expect(results).toEqual([
      { status: 'rejected', reason: down },
      { status: 'rejected', reason: down },
    ]);
  });
});
