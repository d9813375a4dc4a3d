import type { SpeedUpLayer } from '@libs/config';

/**
 * Layer `concurrent-calls`: the calls of one claim run `<PREFIX>_DISPATCH_CONCURRENCY` at a time.
 *
 * - Changes: the core calls the partner for one claimed command after the other; with this layer
 *   up to `concurrency` calls are in flight, so a claim takes about one call's time per wave instead
 *   of per command, and the claim lease (which must outlast the claim's calls) is shorter.
 * - Costs: up to `concurrency` requests at once on the partner (and its connection pool); with it
 *   off, the lease grows to a request timeout per claimed command.
 * - Figure: claiming batches, sending them concurrently and claiming again while full, the last
 *   accrual of a 3,015-order drain landed 0.2 s after the last order was final instead of 9 s
 *   ([0303](../../../../docs/decisions/0303-concurrent-calls.md)).
 * - Off: `COMMANDS_CONCURRENT_CALLS_ENABLED=false`.
 */
export const concurrentCallsLayer: SpeedUpLayer = {
  name: 'concurrent-calls',
  pattern: 'commands',
  switch: 'COMMANDS_CONCURRENT_CALLS_ENABLED',
  changes: 'The calls of one claim run <PREFIX>_DISPATCH_CONCURRENCY at a time instead of one after the other.',
  costs: 'As many requests at once on the partner; off, the claim lease grows to a request timeout per claimed command.',
  decision: 'docs/decisions/0303-concurrent-calls.md',
};

/** The core's way: one call after the other. */
export async function oneAfterAnother<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  for (const item of items) await work(item);
}

/**
 * Calls `work` for every item with at most `limit` calls in flight, and resolves when all have
 * settled. `work` must not throw (the dispatcher turns every failure into an outcome); a throw
 * still rejects the whole run after the other calls finished, so nothing is left running.
 */
export async function runConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await work(item);
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}
