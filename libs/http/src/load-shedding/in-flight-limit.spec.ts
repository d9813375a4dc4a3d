import { describe, expect, it } from '@jest/globals';
import { InFlightLimit } from './in-flight-limit.js';

function limit(targetLatencyMs = 500, minInFlight = 3) {
  const clock = { ms: 0 };
  return { clock, limit: new InFlightLimit({ targetLatencyMs, minInFlight }, () => clock.ms) };
}

/** Completes `perSec` requests a second for `seconds`, in 10 ms steps, each one entered then left. */
function complete(subject: ReturnType<typeof limit>, perSec: number, seconds: number): void {
  for (let step = 0; step < seconds * 100; step += 1) {
    subject.clock.ms += 10;
    for (let n = 0; n < perSec / 100; n += 1) {
      expect(subject.limit.tryEnter()).toBeUndefined();
      subject.limit.leave();
    }
  }
}

describe('InFlightLimit', () => {
  it('when no completion rate is known yet, then the floor is admitted and the next one refused', () => {
    const { limit: subject } = limit(500, 3);
    for (let n = 0; n < 3; n += 1) expect(subject.tryEnter()).toBeUndefined();
    expect(subject.tryEnter()).toEqual({ signal: 'in_flight', value: 4, bound: 3 });
  });

  it('when requests complete at 200/s, then the bound is 200/s times the target latency', () => {
    const subject = limit(500, 3);
    complete(subject, 200, 3);
    expect(subject.limit.bound()).toBeGreaterThanOrEqual(95);
    expect(subject.limit.bound()).toBeLessThanOrEqual(105);
  });

  it('when in flight reaches the bound, then new requests are refused until one leaves', () => {
    const subject = limit(500, 3);
    complete(subject, 200, 3);
    const bound = subject.limit.bound();
    for (let n = 0; n < bound; n += 1) expect(subject.limit.tryEnter()).toBeUndefined();
    expect(subject.limit.tryEnter()?.signal).toBe('in_flight');
    subject.limit.leave();
    expect(subject.limit.tryEnter()).toBeUndefined();
  });

  it('when not enforced, then every request is admitted and counted', () => {
    const { limit: subject } = limit(500, 1);
    expect([subject.tryEnter(false), subject.tryEnter(false)]).toEqual([undefined, undefined]);
    expect(subject.reading()).toEqual({ signal: 'in_flight', value: 2, bound: 1 });
  });

  it('when completions stop (the process stalls), then the bound falls back to the floor', () => {
    const subject = limit(500, 3);
    complete(subject, 200, 3);
    subject.clock.ms += 5_000;
    subject.limit.bound();
    subject.clock.ms += 5_000;
    expect(subject.limit.bound()).toBe(3);
  });

  it('when completions pause briefly (a GC pause, a busy neighbour), then the bound keeps what the process sustained', () => {
    const subject = limit(500, 3);
    complete(subject, 200, 3);
    const before = subject.limit.bound();
    subject.clock.ms += 1_500;
    expect(subject.limit.bound()).toBe(before);
    complete(subject, 20, 2);
    expect(subject.limit.bound()).toBe(before);
  });

  it('when more leave than entered, then the count stays at zero', () => {
    const { limit: subject } = limit();
    subject.leave();
    expect(subject.reading().value).toBe(0);
  });
});
