import { describe, expect, it } from '@jest/globals';
import { warmUpSettled, warmUpSummary } from './warm-up.js';

/** The first window after which `series` counts as settled, or -1. */
const settledAt = (series: number[]) => series.findIndex((_, index) => warmUpSettled(series.slice(0, index + 1)));

describe('the warm-up of the end-to-end section', () => {
  it('when the CPU per order still falls by more than 5 % within three windows, then it has not settled; once three find no such low, it has', () => {
    // A quick run's 10-s windows on a cold loop at 150/s (2 AMD EPYC cores): steep, then scattered.
    const measured = [8.01, 8.87, 7.83, 6.63, 5.76, 6.58, 6.08, 6.23, 6.41];
    // 6.58, 6.08, 6.23 come no lower than 5.76: the fourth window's low was the last.
    expect(settledAt(measured)).toBe(7);
    // Falling 3 % a window, three windows fall 9 %: never settled.
    expect(settledAt(Array.from({ length: 12 }, (_, index) => 8 * 0.97 ** index))).toBe(-1);
  });

  it('when a window scatters above the others, then that is noise, not warm-up: it settles all the same', () => {
    expect(warmUpSettled([5.0, 5.0, 5.6, 5.1])).toBe(true);
  });

  it('when fewer than four windows ran, then it cannot tell', () => {
    expect(warmUpSettled([5.0, 5.0, 5.0])).toBe(false);
  });

  it('when a window measured nothing (no order finished), then it cannot settle on it', () => {
    expect(warmUpSettled([5.0, 5.0, Number.NaN, 5.0])).toBe(false);
    expect(warmUpSettled([5.0, 5.0, 0, 5.0])).toBe(false);
  });

  it('when exactly 5 % below the lowest before, then settled; further below, not', () => {
    expect(warmUpSettled([6.0, 5.0, 4.75, 5.0, 5.0])).toBe(true);
    expect(warmUpSettled([6.0, 5.0, 4.74, 5.0, 5.0])).toBe(false);
  });

  it('when summarised, then the line gives the length, each window and the verdict', () => {
    expect(warmUpSummary({ initialMs: 15_000, windowMs: 15_000, cpuMsPerOrder: [6.1, 5.0, 4.9, 4.95], settled: true })).toBe(
      'warm-up of 75 s: CPU per order of its 15-s windows 6.10, 5.00, 4.90, 4.95 ms (settled: the last 3 none more than 5 % below the lowest before them)',
    );
    expect(warmUpSummary({ initialMs: 5000, windowMs: 10_000, cpuMsPerOrder: [7, 6, 5], settled: false })).toBe(
      'warm-up of 35 s: CPU per order of its 10-s windows 7.00, 6.00, 5.00 ms (not settled within 35 s: the figures may still hold some warm-up)',
    );
  });
});
