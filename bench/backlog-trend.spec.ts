import { describe, expect, it } from '@jest/globals';
import { backlogVerdict, slopePerSec } from './backlog-trend.js';

describe('backlog detection', () => {
  const samples = (values: number[]) => values.map((unfinished, index) => ({ atMs: index * 1000, unfinished }));

  it('when the unfinished count grows by 50 per second, then the slope is 50/s and the backlog grows', () => {
    const verdict = backlogVerdict(samples(Array.from({ length: 30 }, (_, second) => second * 50)), 150);
    expect(verdict.slopePerSec).toBeCloseTo(50, 5);
    expect(verdict.growing).toBe(true);
  });

  it('when the count levels off at rate x latency, then it is not growing, however high the level', () => {
    const ramp = Array.from({ length: 30 }, (_, second) => Math.min(second, 10) * 30 + (second % 2 ? 4 : -4));
    expect(backlogVerdict(samples(ramp), 150).growing).toBe(false);
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
