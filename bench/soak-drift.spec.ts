import { describe, expect, it } from '@jest/globals';
import { driftVerdict, soakDrift } from './soak-drift.js';
import type { SoakSample } from './soak-results.js';

/** A sample every 30 s for `minutes`, each figure given by the minute it is taken at. */
function samples(minutes: number, at: (minute: number) => { p99: number; rss: number; dead: number; otherDead?: number }): SoakSample[] {
  return Array.from({ length: minutes * 2 }, (_, index) => {
    const minute = (index + 1) / 2;
    const value = at(minute);
    return {
      atMinutes: minute,
      finished: 2100,
      p99Ms: value.p99,
      rssMb: { orders: value.rss },
      tables: {
        'orders.outbox_messages': { rows: 1000, liveTuples: 1000, deadTuples: value.dead, autovacuumCount: 0 },
        'inventory.loyalty_commands': { rows: 1000, liveTuples: 1000, deadTuples: value.otherDead ?? 0, autovacuumCount: 0 },
      },
    };
  });
}

describe('soak drift: the last five minutes against the first five after the warm-up', () => {
  it('when the vacuums shift against the samples, then the drift reads the mean between samples, not the one reading of each', () => {
    // The readings of the samples alternate 600 / 6,900 in the first window and 5,500 / 11,800 in
    // the last (the same saw-tooth read at another phase); the means between samples stay at 6,300.
    const shifted = samples(20, (minute) => ({ p99: 300, rss: 250, dead: (minute < 10 ? [600, 6900] : [5500, 11800])[(minute * 2) % 2] }));
    expect(soakDrift(shifted, 20)!.deadTuples['orders.outbox_messages'].flat).toBe(false);
    for (const sample of shifted) sample.tables['orders.outbox_messages'].deadTuplesMean = 6300;
    expect(soakDrift(shifted, 20)!.deadTuples['orders.outbox_messages']).toEqual({ first: 6300, last: 6300, ratio: 1, flat: true });
  });

  it('when every figure holds steady (a saw-tooth of dead tuples included), then each is flat, and nothing is found', () => {
    const drift = soakDrift(
      samples(20, (minute) => ({ p99: 300, rss: 250, dead: minute % 2 === 0 ? 1000 : 3000 })),
      20,
    )!;
    expect(drift.firstWindow).toEqual([1, 6]);
    expect(drift.lastWindow).toEqual([15, 20]);
    expect(drift.windowsApart).toBe(true);
    expect(drift.p99Ms).toEqual({ first: 300, last: 300, ratio: 1, flat: true });
    expect(drift.deadTuples['orders.outbox_messages'].flat).toBe(true);
    // Nothing dead in either window: flat, not a division by zero.
    expect(drift.deadTuples['inventory.loyalty_commands']).toEqual({ first: 0, last: 0, ratio: 1, flat: true });
    expect(driftVerdict(drift)).toBe('flat (minutes 15-20 against 1-6, within 10 %)');
  });

  it('when samples land late, then each counts in the window it describes: the warm-up stays out of the first', () => {
    // Each p99 covers the half-minute before its sample. The warm-up's (minutes 0-1) is slow; the
    // samples land 0.2 s after their nominal time, as a loaded machine's do, so the one that
    // describes minutes 0.5-1 lands at 1.003, past the warm-up's end.
    const late = samples(20, (minute) => ({ p99: minute <= 1 ? 1000 : 300, rss: 250, dead: 1000 })).map((sample) => ({
      ...sample,
      atMinutes: sample.atMinutes + 0.003,
    }));
    const drift = soakDrift(late, 20)!;
    // Counted by where they land, the first window held that sample: (1000 + 9 × 300) / 10 = 370.
    expect(drift.p99Ms).toEqual({ first: 300, last: 300, ratio: 1, flat: true });
    // However slow the warm-up's last half-minute, the first window does not see it.
    const slowerWarmUp = late.map((sample) => (sample.atMinutes < 1.1 ? { ...sample, p99Ms: 5000 } : sample));
    expect(soakDrift(slowerWarmUp, 20)!.p99Ms.first).toBe(300);
  });

  it('when memory climbs and dead tuples appear from none, then those figures are not flat, and the findings name them', () => {
    const drift = soakDrift(
      samples(20, (minute) => ({ p99: 300, rss: 200 + minute * 10, dead: 1000, otherDead: minute > 10 ? 500 : 0 })),
      20,
    )!;
    // Minutes 1.5-6: 215-260 MB, mean 237.5; minutes 15.5-20: 355-400 MB, mean 377.5.
    expect(drift.rssMb.orders.first).toBeCloseTo(237.5);
    expect(drift.rssMb.orders.last).toBeCloseTo(377.5);
    expect(drift.rssMb.orders.flat).toBe(false);
    expect(drift.deadTuples['inventory.loyalty_commands'].flat).toBe(false);
    expect(driftVerdict(drift)).toBe(
      'not flat (minutes 15-20 against 1-6): RSS orders, MB: 238 -> 378 (+59 %); dead tuples inventory.loyalty_commands: 0 -> 500 (from 0)',
    );
  });

  it('when the last window is within 10 % of the first, then it is flat; past 10 %, it is not', () => {
    const within = soakDrift(
      samples(20, (minute) => ({ p99: minute > 10 ? 330 : 300, rss: 250, dead: 1000 })),
      20,
    )!;
    const past = soakDrift(
      samples(20, (minute) => ({ p99: minute > 10 ? 340 : 300, rss: 250, dead: 1000 })),
      20,
    )!;
    expect(within.p99Ms.flat).toBe(true);
    expect(past.p99Ms.flat).toBe(false);
  });

  it('when the run is shorter than two windows, then the windows overlap and say so; with no sample after the warm-up, there is no drift', () => {
    expect(
      soakDrift(
        samples(8, () => ({ p99: 300, rss: 250, dead: 1000 })),
        8,
      )!.windowsApart,
    ).toBe(false);
    expect(
      soakDrift(
        samples(1, () => ({ p99: 300, rss: 250, dead: 1000 })),
        1,
      ),
    ).toBeUndefined();
  });
});
