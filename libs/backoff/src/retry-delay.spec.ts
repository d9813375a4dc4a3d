import { describe, expect, it } from '@jest/globals';
import { retryDelayMs } from './retry-delay.js';

const BASE = 500;
const MAX = 30_000;
const lowest = () => 0;
const highest = () => 1;

describe('retryDelayMs', () => {
  it('when the random part is 0 or 1, then the delay is half the step or the full step', () => {
    expect(retryDelayMs(1, BASE, MAX, lowest)).toBe(250);
    expect(retryDelayMs(1, BASE, MAX, highest)).toBe(500);
    expect(retryDelayMs(3, BASE, MAX, lowest)).toBe(1000);
    expect(retryDelayMs(3, BASE, MAX, highest)).toBe(2000);
  });

  it('when attempts grow, then the step doubles per attempt until it reaches the cap', () => {
    const steps = [1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => retryDelayMs(attempts, BASE, MAX, highest));
    expect(steps).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('when any random value is drawn, then the delay stays within [step / 2, step] and never exceeds the cap', () => {
    for (let attempts = 1; attempts <= 40; attempts += 1) {
      const step = Math.min(MAX, BASE * 2 ** (attempts - 1));
      for (const random of [0, 0.1, 0.5, 0.999, 1]) {
        const delay = retryDelayMs(attempts, BASE, MAX, () => random);
        expect(delay).toBeGreaterThanOrEqual(Math.round(step / 2));
        expect(delay).toBeLessThanOrEqual(MAX);
        expect(delay).toBeLessThanOrEqual(step);
      }
    }
  });

  it('when attempts are 0 or negative, then the first step is used', () => {
    expect(retryDelayMs(0, BASE, MAX, highest)).toBe(500);
    expect(retryDelayMs(-3, BASE, MAX, highest)).toBe(500);
  });

  it('when attempts are huge, then the result is still the finite cap (no overflow to Infinity)', () => {
    expect(retryDelayMs(10_000, BASE, MAX, highest)).toBe(MAX);
    expect(Number.isFinite(retryDelayMs(Number.MAX_SAFE_INTEGER, BASE, MAX, lowest))).toBe(true);
  });

  it('when no random source is given, then Math.random spreads the delays', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(10, BASE, MAX)));
    expect(delays.size).toBeGreaterThan(1);
  });
});
