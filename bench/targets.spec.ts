import { describe, expect, it } from '@jest/globals';
import type { BenchResults, E2eRun } from './bench-results.js';
import type { SoakResults } from './soak-results.js';
import { judgeSoak, judgeTargets, type TargetVerdict, targetsTable } from './targets.js';

/** The figures the targets read of one end-to-end run; the rest of an E2eRun plays no part. */
function run(offeredPerSec: number, figures: { cpuMs: number; p99Ms: number; stageP99s: number[]; rssMb: number[] }): E2eRun {
  const [relay = 0, inventory = 0] = figures.stageP99s;
  const [orders = 0, inventoryRss = 0, loyalty = 0] = figures.rssMb;
  return {
    offeredPerSec,
    p99Ms: figures.p99Ms,
    stages: {
      'orders relay': { count: 10, p50Ms: 5, p95Ms: 10, p99Ms: relay },
      'published → inventory inbox': { count: 10, p50Ms: 5, p95Ms: 10, p99Ms: inventory },
    },
    processes: {
      orders: { cpuMsPerOrder: 1, peakRssMb: orders },
      inventory: { cpuMsPerOrder: 1, peakRssMb: inventoryRss },
      loyalty: { cpuMsPerOrder: 1, peakRssMb: loyalty },
    },
    cpu: { totalMsPerOrder: figures.cpuMs, byProcess: {}, loadGeneratorMsPerOrder: 1, ceilingPerSec: 200, cores: 2, orders: 1000 },
  } as unknown as E2eRun;
}

function results(): BenchResults {
  return {
    relay: { ratio: 0.85 },
    http: { withOutboxPerSec: 325, plainWithOutboxPerSec: 500 },
    e2e: {
      runs: [
        run(150, { cpuMs: 9.2, p99Ms: 280, stageP99s: [60, 130], rssMb: [120, 110, 100] }),
        run(300, { cpuMs: 2.5, p99Ms: 900, stageP99s: [400, 300], rssMb: [200, 140, 130] }),
        run(600, { cpuMs: 2, p99Ms: 9000, stageP99s: [900, 900], rssMb: [220, 150, 140] }),
      ],
      maxSustainablePerSec: 300,
      drainPerSec: 600,
    },
    overload: [
      { multiple: 2, offeredPerSec: 600, goodputPerSec: 285, lostAccepted: 0 },
      { multiple: 4, offeredPerSec: 1200, goodputPerSec: 240, lostAccepted: 0 },
    ],
  } as unknown as BenchResults;
}

const verdict = (verdicts: TargetVerdict[], id: string) => {
  const found = verdicts.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no target ${id}`);
  return found;
};

describe('the targets against a run', () => {
  it('when a figure is past its limit, then it is missed by its distance as a share of the limit; when within, met', () => {
    const verdicts = judgeTargets(results());
    expect(verdict(verdicts, 'cpu-per-order-moderate')).toMatchObject({
      required: '≤ 5 ms',
      value: 9.2,
      met: false,
      byHowMuch: '84 % over',
    });
    expect(verdict(verdicts, 'cpu-per-order-maximum')).toMatchObject({ value: 2.5, met: true, byHowMuch: 'met' });
    expect(verdict(verdicts, 'sustained')).toMatchObject({ required: '≥ 500/s', value: 300, met: false, byHowMuch: '40 % short' });
    expect(verdict(verdicts, 'p99-moderate')).toMatchObject({ value: 280, met: true });
    expect(verdict(verdicts, 'p99-busy')).toMatchObject({ value: 900, met: false, byHowMuch: '80 % over' });
    expect(verdict(verdicts, 'drain')).toMatchObject({ value: 600, met: false, byHowMuch: '40 % short' });
    expect(verdict(verdicts, 'http-ratio')).toMatchObject({ value: 0.65, met: false, byHowMuch: '7 % short' });
    expect(verdict(verdicts, 'relay-ratio')).toMatchObject({ value: 0.85, met: true });
  });

  it('when a figure is the worst of several, then the slowest stage is named and every app memory is listed', () => {
    const verdicts = judgeTargets(results());
    expect(verdict(verdicts, 'stage-p99-moderate')).toMatchObject({
      value: 130,
      met: false,
      measured: '130 ms (published → inventory inbox)',
    });
    expect(verdict(verdicts, 'peak-rss-busy')).toMatchObject({
      value: 200,
      met: false,
      measured: '200 MB (orders 200 MB, inventory 140 MB, loyalty 130 MB)',
      byHowMuch: '33 % over',
    });
  });

  it('when the loop is overloaded, then goodput is a share of the sustained maximum and any accepted order lost misses', () => {
    const value = results();
    expect(verdict(judgeTargets(value), 'goodput-2x')).toMatchObject({ value: 95, met: true });
    expect(verdict(judgeTargets(value), 'goodput-4x')).toMatchObject({ value: 80, met: false, byHowMuch: '11 % short' });
    expect(verdict(judgeTargets(value), 'accepted-lost')).toMatchObject({ required: 'none', value: 0, met: true });
    value.overload[1].lostAccepted = 3;
    expect(verdict(judgeTargets(value), 'accepted-lost')).toMatchObject({ value: 3, met: false, byHowMuch: '3 over' });
  });

  it('when the run did not measure a figure, then its target is not measured, never judged on a made-up number', () => {
    const value = results();
    value.e2e.runs = value.e2e.runs.filter((candidate) => candidate.offeredPerSec !== 300);
    value.e2e.maxSustainablePerSec = 0;
    value.overload = [];
    value.e2e.drainPerSec = Number.NaN;
    const verdicts = judgeTargets(value);
    for (const id of [
      'cpu-per-order-maximum',
      'sustained',
      'p99-busy',
      'peak-rss-busy',
      'goodput-2x',
      'goodput-4x',
      'accepted-lost',
      'drain',
    ])
      expect(verdict(verdicts, id)).toMatchObject({ value: null, met: null, measured: 'not measured' });
    expect(verdict(verdicts, 'p99-moderate').met).toBe(true);
  });

  it('when drawn as a table, then a missed row links what bounds it on the performance page and a met row does not', () => {
    const table = targetsTable(judgeTargets(results()), 'docs/performance.md');
    expect(table[0]).toBe('| target | required | measured | met, or by how much missed | what bounds it |');
    const relay = table.find((line) => line.startsWith('| outbox relay'));
    expect(relay).toBe('| outbox relay against a raw producer | ≥ 0.8 | 0.85 | **met** |  |');
    const drain = table.find((line) => line.startsWith('| backlog drain'));
    expect(drain).toMatch(/^\| backlog drain \| ≥ 1,000\/s \| 600\/s \| 40 % short \| \[.+\]\(docs\/performance\.md#[a-z0-9-]+\) \|$/);
  });
});

function soak(overrides: Partial<SoakResults> = {}): SoakResults {
  const flat = { first: 100, last: 105, ratio: 1.05, flat: true };
  return {
    minutes: 20,
    offeredPerSec: 210,
    isSoak: true,
    drift: {
      firstWindow: [1, 6],
      lastWindow: [15, 20],
      windowsApart: true,
      p99Ms: flat,
      rssMb: { orders: { first: 200, last: 204, ratio: 1.02, flat: true } },
      deadTuples: { 'orders.outbox_messages': { first: 1000, last: 1080, ratio: 1.08, flat: true } },
    },
    ...overrides,
  } as SoakResults;
}

describe('the soak target', () => {
  it('when every figure of a 20-minute soak stayed within the tolerance, then it is met, with the widest change', () => {
    expect(judgeSoak(soak())).toMatchObject({ met: true, measured: '3 of 3 figures flat, the widest change 8 % (210/s for 20 min)' });
  });

  it('when a figure grew past the tolerance, then the soak is missed naming it', () => {
    const grown = soak();
    grown.drift!.deadTuples['orders.outbox_messages'] = { first: 1000, last: 2000, ratio: 2, flat: false };
    expect(judgeSoak(grown)).toMatchObject({ met: false, byHowMuch: 'not flat: dead tuples orders.outbox_messages' });
  });

  it('when the run was shorter than 20 minutes or autovacuum was off, then it does not count for the target', () => {
    expect(judgeSoak(soak({ minutes: 10 })).met).toBeNull();
    expect(judgeSoak(soak({ isSoak: false })).met).toBeNull();
  });
});
