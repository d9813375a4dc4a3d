import { describe, expect, it } from '@jest/globals';
import { median, percentile, summarizeLatencies } from './percentiles.js';

describe('percentiles', () => {
  const hundred = Array.from({ length: 100 }, (_, index) => 100 - index); // 100..1, unsorted on purpose

  it('when asked for p50/p95/p99 of 1..100, then the nearest ranks 50, 95 and 99 are returned', () => {
    expect([percentile(hundred, 50), percentile(hundred, 95), percentile(hundred, 99), percentile(hundred, 100)]).toEqual([
      50, 95, 99, 100,
    ]);
  });

  it('when there are few samples, then every percentile is a sample that really occurred (no interpolation)', () => {
    expect(percentile([10, 1000], 50)).toBe(10);
    expect(percentile([10, 1000], 95)).toBe(1000);
    expect(percentile([7], 0)).toBe(7);
  });

  it('when there are no samples, then the figures are NaN, not zero', () => {
    expect(summarizeLatencies([])).toEqual({ count: 0, p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN });
    expect(median([])).toBeNaN();
  });

  it('when a percentile is outside 0..100, then it throws', () => {
    expect(() => percentile([1], 101)).toThrow(/outside/);
  });

  it('when the count is even, then the median is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([3, 1, 2])).toBe(2);
  });
});
