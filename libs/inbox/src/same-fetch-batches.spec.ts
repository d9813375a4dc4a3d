import { describe, expect, it } from '@jest/globals';
import type { InboxBatch, InboxConsumer, InboxOutcome } from './inbox.consumer.js';
import type { InboxRoute } from './inbox-consumes.js';
import { SameFetchBatches } from './same-fetch-batches.js';

/**
 * How batches handed over in one turn of the event loop reach the inbox. The inbox is a stand-in
 * that records its calls and answers one outcome per record: what it does with them is proven
 * against real Postgres and Kafka in inbox.contract.int-spec.ts and same-fetch-batches.int-spec.ts.
 */
describe('SameFetchBatches', () => {
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

  /** `fail` makes every call reject; `failPartition` only the promise of that partition's batch. */
  function inboxStandIn(fail?: Error, failPartition?: number) {
    const calls: { method: 'consume' | 'consumeTogether'; partitions: number[]; route: InboxRoute }[] = [];
    const outcomesOf = async (one: InboxBatch): Promise<InboxOutcome[]> => {
      if (fail) throw fail;
      if (one.partition === failPartition) throw new Error(`partition ${one.partition} failed alone`);
      return one.records.map(() => 'processed');
    };
    const inbox = {
      consume: (one: InboxBatch, route: InboxRoute) => {
        calls.push({ method: 'consume', partitions: [one.partition], route });
        return outcomesOf(one);
      },
      consumeTogether: (batches: readonly InboxBatch[], route: InboxRoute) => {
        calls.push({ method: 'consumeTogether', partitions: batches.map((one) => one.partition), route });
        return batches.map(outcomesOf);
      },
    } as unknown as Pick<InboxConsumer, 'consume' | 'consumeTogether'>;
    return { inbox, calls };
  }

  it('when the batches of three partitions arrive in one turn, then the inbox gets them in one call, and each caller gets its own outcomes', async () => {
    const { inbox, calls } = inboxStandIn();
    const gathering = new SameFetchBatches(inbox);
    const results = await Promise.all([
      gathering.consume(batch(0, 1), routeA),
      gathering.consume(batch(1, 2), routeA),
      gathering.consume(batch(2, 3), routeA),
    ]);
    expect(calls).toEqual([{ method: 'consumeTogether', partitions: [0, 1, 2], route: routeA }]);
    expect(results.map((outcomes) => outcomes.length)).toEqual([1, 2, 3]);
  });

  it('when batches of two routes arrive in one turn, then each route gets its own call: a transaction never mixes handlers', async () => {
    const { inbox, calls } = inboxStandIn();
    const gathering = new SameFetchBatches(inbox);
    await Promise.all([
      gathering.consume(batch(0, 1), routeA),
      gathering.consume(batch(0, 1), routeB),
      gathering.consume(batch(1, 1), routeA),
    ]);
    expect(calls).toEqual([
      { method: 'consumeTogether', partitions: [0, 1], route: routeA },
      { method: 'consume', partitions: [0], route: routeB },
    ]);
  });

  it('when a batch arrives after the turn of the others, then it is handed over on its own and waits for none of them', async () => {
    const { inbox, calls } = inboxStandIn();
    const gathering = new SameFetchBatches(inbox);
    const first = gathering.consume(batch(0, 1), routeA);
    await new Promise((resolve) => setImmediate(resolve));
    const second = gathering.consume(batch(1, 1), routeA);
    await Promise.all([first, second]);
    expect(calls).toEqual([
      { method: 'consume', partitions: [0], route: routeA },
      { method: 'consume', partitions: [1], route: routeA },
    ]);
  });

  it('when one batch of a group fails alone (a rebalance found by its heartbeat), then only its caller rejects, and the others get their outcomes', async () => {
    const { inbox } = inboxStandIn(undefined, 1);
    const gathering = new SameFetchBatches(inbox);
    const results = await Promise.allSettled([
      gathering.consume(batch(0, 1), routeA),
      gathering.consume(batch(1, 1), routeA),
      gathering.consume(batch(2, 2), routeA),
    ]);
    expect(results).toEqual([
      { status: 'fulfilled', value: ['processed'] },
      { status: 'rejected', reason: new Error('partition 1 failed alone') },
      { status: 'fulfilled', value: ['processed', 'processed'] },
    ]);
  });

  it('when the inbox cannot write, then every batch handed over with it rejects with that error: no offset of them moves', async () => {
    const down = new Error('connection refused');
    const { inbox } = inboxStandIn(down);
    const gathering = new SameFetchBatches(inbox);
    const results = await Promise.allSettled([gathering.consume(batch(0, 1), routeA), gathering.consume(batch(1, 1), routeA)]);
    expect(results).toEqual([
      { status: 'rejected', reason: down },
      { status: 'rejected', reason: down },
    ]);
  });
});
