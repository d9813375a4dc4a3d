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
