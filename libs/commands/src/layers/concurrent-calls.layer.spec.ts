import { describe, expect, it } from '@jest/globals';
import { runConcurrently } from './concurrent-calls.layer.js';

describe('runConcurrently', () => {
  it('when given more items than the limit, then every item runs once and never more than the limit at a time', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await runConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(item);
      running -= 1;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });

  it('when one call throws, then the others still run and the run rejects with that error', async () => {
    const seen: number[] = [];
    await expect(
      runConcurrently([1, 2, 3], 2, async (item) => {
        if (item === 1) throw new Error('boom');
        seen.push(item);
      }),
    ).rejects.toThrow('boom');
    expect(seen.sort()).toEqual([2, 3]);
  });
});
