import { describe, expect, it } from '@jest/globals';
import { backlogVerdict, slopePerSec } from './backlog-trend.js';
import { dueUntil, sendSchedule } from './open-model-schedule.js';
import { median, percentile, summarizeLatencies } from './percentiles.js';
import { isSustained, maxSustained, nextOfferedRate, type RateTrial } from './rate-search.js';

describe('percentiles', () => {
  const hundred = Array.from({ length: 100 }, (_, index) => 100 - index); // 100..1, unsorted on purpose

  it('when asked for p50/p95/p99 of 1..100, then the nearest ranks 50, 95 and 99 are returned', () => {
    expect([percentile(hundred, 50), percentile(hundred, 95), percentile(hundred, 99), percentile(hundred, 100)]).toEqual([50, 95, 99, 100]);
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

describe('open-model schedule', () => {
  it('when 150/s are offered for 2 s, then 300 sends leave every 6.67 ms from 0, whatever the answers', () => {
    const schedule = sendSchedule(150, 2000);
    expect(schedule).toHaveLength(300);
    expect(schedule[0]).toBe(0);
    expect(schedule[1]).toBeCloseTo(6.667, 2);
    expect(schedule[299]).toBeCloseTo(1993.33, 1);
  });

  it('when the generator wakes late, then every request already due leaves on that tick', () => {
    const schedule = sendSchedule(100, 1000); // 0, 10, 20, ...
    expect(dueUntil(schedule, 0, 0)).toBe(1);
    expect(dueUntil(schedule, 1, 35)).toBe(4); // 10, 20, 30 were due
    expect(dueUntil(schedule, 4, 35)).toBe(4);
    expect(dueUntil(schedule, 0, 5000)).toBe(100);
  });

  it('when the rate is not positive, then it throws', () => {
    expect(() => sendSchedule(0, 1000)).toThrow(/positive/);
  });
});

describe('backlog detection', () => {
  const samples = (values: number[]) => values.map((unfinished, index) => ({ atMs: index * 1000, unfinished }));

  it('when the unfinished count grows by 50 per second, then the slope is 50/s and the backlog grows', () => {
    const verdict = backlogVerdict(samples(Array.from({ length: 30 }, (_, second) => second * 50)), 150);
    expect(verdict.slopePerSec).toBeCloseTo(50, 5);
    expect(verdict.growing).toBe(true);
  });

  it('when the count levels off at rate x latency, then it is not growing, however high the level', () => {
    const ramp = Array.from({ length: 30 }, (_, second) => Math.min(second, 10) * 30 + (second % 2 ? 4 : -4));
    expect(backlogVerdict(ramp.length ? samples(ramp) : [], 150).growing).toBe(false);
  });

  it('when only the first half grew (a start-up ramp), then only the tail counts', () => {
    const values = [...Array.from({ length: 10 }, (_, second) => second * 100), ...Array.from({ length: 10 }, () => 1000)];
    expect(backlogVerdict(samples(values), 150).growing).toBe(false);
    expect(backlogVerdict(samples(values), 150, { tailFraction: 1 }).growing).toBe(true);
  });

  it('when the growth is below 5 % of the offered rate, then it is noise, not a backlog', () => {
    expect(backlogVerdict(samples(Array.from({ length: 20 }, (_, second) => second * 5)), 150).growing).toBe(false);
    expect(backlogVerdict(samples(Array.from({ length: 20 }, (_, second) => second * 10)), 150).growing).toBe(true);
  });

  it('when there are fewer than two samples, then the slope is zero', () => {
    expect(slopePerSec([{ atMs: 0, unfinished: 9 }])).toBe(0);
  });
});

describe('stepped rate search', () => {
  const options = { minPerSec: 25, maxPerSec: 1200, resolutionPerSec: 25 };
  const trial = (offeredPerSec: number, sustained: boolean): RateTrial => ({ offeredPerSec, sustained });

  it('when every rate held, then it doubles up to the maximum', () => {
    expect(nextOfferedRate([trial(150, true)], options)).toBe(300);
    expect(nextOfferedRate([trial(150, true), trial(300, true), trial(600, true)], options)).toBe(1200);
    expect(nextOfferedRate([trial(1200, true)], options)).toBeUndefined();
  });

  it('when no rate held, then it halves, and gives up below the minimum', () => {
    expect(nextOfferedRate([trial(150, false)], options)).toBe(75);
    expect(nextOfferedRate([trial(150, false), trial(75, false), trial(37, false)], options)).toBeUndefined();
  });

  it('when one rate held and a higher one failed, then it bisects until they are within the resolution', () => {
    expect(nextOfferedRate([trial(150, false), trial(75, true)], options)).toBe(113);
    expect(nextOfferedRate([trial(150, false), trial(75, true), trial(113, true)], options)).toBe(132);
    expect(nextOfferedRate([trial(150, false), trial(132, true)], options)).toBeUndefined();
  });

  it('when asked for the result, then it is the highest sustained rate, or 0', () => {
    expect(maxSustained([trial(150, false), trial(75, true), trial(113, true)])).toBe(113);
    expect(maxSustained([trial(150, false)])).toBe(0);
  });

  it('when a run kept up without a growing backlog or failures, then it is sustained; any one shortfall makes it not', () => {
    const good = { offeredPerSec: 150, achievedPerSec: 148, backlogGrowing: false, sent: 4500, failedRequests: 0, unfinished: 0 };
    expect(isSustained(good)).toBe(true);
    expect(isSustained({ ...good, backlogGrowing: true })).toBe(false);
    expect(isSustained({ ...good, achievedPerSec: 100 })).toBe(false);
    expect(isSustained({ ...good, failedRequests: 100 })).toBe(false);
    expect(isSustained({ ...good, unfinished: 1 })).toBe(false);
  });
});
