import { describe, expect, it } from '@jest/globals';
import { TokenBuckets } from './token-buckets.js';

function clock() {
  let ms = 0;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe('token buckets per caller', () => {
  it('when a caller bursts past its capacity, then the next request is refused with the seconds until a token is back', () => {
    const time = clock();
    const buckets = new TokenBuckets({ capacity: 3, refillPerSecond: 0.5, now: time.now });
    expect([1, 2, 3].map(() => buckets.take('a').taken)).toEqual([true, true, true]);
    expect(buckets.take('a')).toEqual({ taken: false, retryAfterSeconds: 2 });
    time.advance(2000);
    expect(buckets.take('a')).toEqual({ taken: true });
    expect(buckets.take('a').taken).toBe(false);
  });

  it('when one caller is out of tokens, then another caller is served', () => {
    const buckets = new TokenBuckets({ capacity: 1, refillPerSecond: 1, now: clock().now });
    expect(buckets.take('a').taken).toBe(true);
    expect(buckets.take('a').taken).toBe(false);
    expect(buckets.take('b').taken).toBe(true);
  });

  it('when a caller is quiet, then its bucket refills up to the capacity and no further', () => {
    const time = clock();
    const buckets = new TokenBuckets({ capacity: 2, refillPerSecond: 10, now: time.now });
    buckets.take('a');
    buckets.take('a');
    time.advance(60_000);
    expect([1, 2, 3].map(() => buckets.take('a').taken)).toEqual([true, true, false]);
  });

  it('when more callers come than it remembers, then refilled buckets go first, then the least recently seen', () => {
    const time = clock();
    const buckets = new TokenBuckets({ capacity: 2, refillPerSecond: 1, maxKeys: 2, now: time.now });
    buckets.take('a');
    buckets.take('a');
    buckets.take('a');
    buckets.take('b');
    buckets.take('c');
    expect(buckets.size).toBe(2);
    // `a` was the least recently seen (b and c came after it): forgotten, a fresh bucket.
    expect(buckets.take('a').taken).toBe(true);
    expect(buckets.size).toBe(2);
  });

  it('when built without a usable rate, then it throws', () => {
    expect(() => new TokenBuckets({ capacity: 0, refillPerSecond: 1 })).toThrow(RangeError);
    expect(() => new TokenBuckets({ capacity: 1, refillPerSecond: 0 })).toThrow(RangeError);
  });
});
