import { describe, expect, it } from '@jest/globals';
import {
  appMemoryPlaceholder,
  backlogDrainPlaceholder,
  type BenchResults,
  type E2eRun,
  loopCpuPlaceholder,
  peakRssAtMaximum,
  resultsShapeProblems,
  toJson,
} from './bench-results.js';
import { loopCpu } from './loop-cpu.js';
import { latencyChartSvg } from './latency-chart.js';
import { resultsMarkdown } from './results-markdown.js';
import { judgeTargets } from './targets.js';

function run(offeredPerSec: number, p50Ms: number, backlogGrowing = false): E2eRun {
  return {
    offeredPerSec,
    durationSec: 30,
    achievedPerSec: offeredPerSec,
    acceptedPerSec: offeredPerSec,
    p50Ms,
    p95Ms: p50Ms * 3,
    p99Ms: p50Ms * 5,
    maxMs: p50Ms * 6,
    answerP50Ms: 5,
    answerP99Ms: 20,
    backlogGrowing,
    backlogSlopePerSec: 0,
    sent: offeredPerSec * 30,
    accepted: offeredPerSec * 30,
    finished: offeredPerSec * 30,
    failedRequests: 0,
    shedRequests: 0,
    shedBySignal: {},
    unfinished: 0,
    finalTimestampNotMoved: 0,
    stages: { 'orders relay': { count: 10, p50Ms: 20, p95Ms: 40, p99Ms: 60 } },
    processes: {
      orders: { cpuMsPerOrder: 7, peakRssMb: 140 + offeredPerSec / 10 },
      inventory: { cpuMsPerOrder: 6, peakRssMb: 130 + offeredPerSec / 20 },
      loyalty: { cpuMsPerOrder: 2, peakRssMb: 120 },
    },
    cpu: CPU,
    kafkaRequestsPerOrder: { Fetch: 0.5, Produce: 0.25 },
    postgres: {
      transactionsPerOrder: 6,
      statementsPerOrder: 14,
      roundTripsPerOrder: 9,
      byService: {
        orders: { transactionsPerOrder: 3, statementsPerOrder: 8, roundTripsPerOrder: 5 },
        inventory: { transactionsPerOrder: 2.5, statementsPerOrder: 5, roundTripsPerOrder: 3 },
        loyalty: { transactionsPerOrder: 0.5, statementsPerOrder: 1, roundTripsPerOrder: 1 },
      },
    },
    httpRequestsPerOrder: { loyalty: 1, orders: 1 },
  };
}

/** 1,000 orders: 3 + 2 + 0.5 + 3.5 + 1 = 10 ms of CPU per order, the load generator's 1 ms apart. */
const CPU = loopCpu(
  { orders: 3000, inventory: 2000, loyalty: 500, postgres: 3500, kafka: 1000, loadGenerator: 1000 },
  1000,
  2,
  'loadGenerator',
);

function results(): BenchResults {
  const value: BenchResults = {
    mode: 'quick',
    startedAt: '2026-12-01T00:00:00.000Z',
    finishedAt: '2026-12-01T00:04:00.000Z',
    machine: {
      cpuCount: 2,
      cpuModel: 'Test CPU',
      nodeVersion: 'v24.0.0',
      kafkaVersion: '4.1.1',
      postgresVersion: '15',
      platform: 'linux',
      totalMemoryMb: 1024,
      loadAverageAtStart: [1, 1, 1],
      postgresAutovacuum: { on: true, wasOn: false, restored: true, note: 'turned on for this run, then restored' },
    },
    relay: { ratio: 0.9, baselinePerSec: 10_000, relayPerSec: 9000, messages: 2000, batchSize: 500, repetitions: 2 },
    inbox: {
      ratio: 0.8,
      inventoryPerSec: 400,
      plainPerSec: 500,
      fullAppPerSec: 300,
      fullAppRatio: 0.6,
      oneByOnePerSec: 100,
      oneByOneRatio: 0.2,
      messages: 800,
      plainConcurrency: 3,
    },
    http: {
      withOutboxPerSec: 300,
      withoutOutboxPerSec: 600,
      dualWritePerSec: 200,
      plainWithOutboxPerSec: 500,
      concurrency: 16,
      rounds: 4,
      durationSec: 4,
    },
    e2e: {
      runs: [run(150, 80), run(300, 120), run(600, 9000, true)],
      maxSustainablePerSec: 300,
      drainPerSec: 500,
      drain: { ...backlogDrainPlaceholder(), orders: 500 },
    },
    processes: {
      orders: { cpuMsPerOrder: 7, peakRssMb: 150 },
      inventory: { cpuMsPerOrder: 6, peakRssMb: 140 },
      loyalty: { cpuMsPerOrder: 2, peakRssMb: 100 },
    },
    memory: { idleRssMb: { orders: 131, inventory: 129, loyalty: 126 }, peakRssMbAtMaximum: { orders: 170, inventory: 145, loyalty: 120 } },
    overload: [
      {
        multiple: 2,
        offeredPerSec: 600,
        goodputPerSec: 290,
        shedShare: 0.5,
        shedBySignal: { in_flight: 8000, event_loop_delay_ms: 1000 },
        acceptedPerSec: 300,
        lostAccepted: 0,
        p99Ms: 900,
        answerP99Ms: 40,
      },
    ],
    layers: [],
    cpu: CPU,
    targets: [],
    notes: [],
  };
  value.targets = judgeTargets(value);
  return value;
}

describe('latest.json', () => {
  it('when every figure was measured, then the written file has the shape the results page reads', () => {
    const written = JSON.parse(toJson(results()));
    expect(resultsShapeProblems(written)).toEqual([]);
    expect(written).toMatchObject({
      relay: { ratio: expect.any(Number) },
      inbox: { ratio: expect.any(Number) },
      http: { withOutboxPerSec: expect.any(Number), withoutOutboxPerSec: expect.any(Number), dualWritePerSec: expect.any(Number) },
      e2e: {
        runs: expect.arrayContaining([
          expect.objectContaining({
            offeredPerSec: 150,
            achievedPerSec: expect.any(Number),
            p50Ms: expect.any(Number),
            p95Ms: expect.any(Number),
            p99Ms: expect.any(Number),
            backlogGrowing: false,
          }),
        ]),
        maxSustainablePerSec: expect.any(Number),
        drainPerSec: expect.any(Number),
      },
      processes: {
        orders: { cpuMsPerOrder: expect.any(Number), peakRssMb: expect.any(Number) },
        inventory: expect.any(Object),
        loyalty: expect.any(Object),
      },
      cpu: {
        totalMsPerOrder: 10,
        ceilingPerSec: 200,
        byProcess: { orders: 3, inventory: 2, loyalty: 0.5, postgres: 3.5, kafka: 1 },
        loadGeneratorMsPerOrder: 1,
      },
    });
  });

  it('when the loop CPU was not measured, then every cpu figure is null and named as a problem', () => {
    const broken = results();
    broken.cpu = loopCpuPlaceholder(2);
    const written = JSON.parse(toJson(broken));
    expect(written.cpu.totalMsPerOrder).toBeNull();
    expect(resultsShapeProblems(written)).toEqual(
      expect.arrayContaining([
        'cpu.totalMsPerOrder is not a number',
        'cpu.ceilingPerSec is not a number',
        'cpu.byProcess.postgres is not a number',
      ]),
    );
  });

  it('when a figure could not be measured, then it is written as null and named as a problem, never as a made-up number', () => {
    const broken = results();
    broken.inbox.ratio = Number.NaN;
    broken.e2e.runs = [];
    const written = JSON.parse(toJson(broken));
    expect(written.inbox.ratio).toBeNull();
    expect(resultsShapeProblems(written)).toEqual(['inbox.ratio is not a number', 'e2e.runs is not a non-empty array']);
  });

  it('when a run lacks its requests per order or an overload run its goodput, then the check names them', () => {
    const value = JSON.parse(toJson(results()));
    delete value.e2e.runs[1].kafkaRequestsPerOrder;
    value.e2e.runs[2].postgres.statementsPerOrder = null;
    delete value.e2e.runs[2].postgres.roundTripsPerOrder;
    delete value.e2e.runs[2].postgres.byService.inventory;
    value.e2e.runs[0].postgres.byService.loyalty.transactionsPerOrder = 'x';
    delete value.overload[0].goodputPerSec;
    delete value.overload[0].shedBySignal;
    value.targets[1].met = 'yes';
    expect(resultsShapeProblems(value)).toEqual([
      'e2e.runs.0.postgres.byService.loyalty.transactionsPerOrder is not a number',
      'e2e.runs.1.kafkaRequestsPerOrder is missing',
      'e2e.runs.2.postgres.statementsPerOrder is not a number',
      'e2e.runs.2.postgres.roundTripsPerOrder is not a number',
      'e2e.runs.2.postgres.byService.inventory.transactionsPerOrder is not a number',
      'e2e.runs.2.postgres.byService.inventory.statementsPerOrder is not a number',
      'e2e.runs.2.postgres.byService.inventory.roundTripsPerOrder is not a number',
      'overload.0.goodputPerSec is not a number',
      'overload.0.shedBySignal is missing',
      'targets.1.met is neither a boolean nor null',
    ]);
  });

  it('when the memory was not measured, then its figures are null and named as problems', () => {
    const broken = results();
    broken.memory = appMemoryPlaceholder();
    const written = JSON.parse(toJson(broken));
    expect(written.memory.idleRssMb.orders).toBeNull();
    expect(resultsShapeProblems(written)).toEqual([
      'memory.idleRssMb.orders is not a number',
      'memory.peakRssMbAtMaximum.orders is not a number',
      'memory.idleRssMb.inventory is not a number',
      'memory.peakRssMbAtMaximum.inventory is not a number',
      'memory.idleRssMb.loyalty is not a number',
      'memory.peakRssMbAtMaximum.loyalty is not a number',
    ]);
  });

  it('when the peak at the maximum is read, then it is the last run at the sustained rate, not the largest of the runs', () => {
    const runs = [run(150, 80), run(600, 9000, true), run(300, 120), run(450, 4000, true), run(300, 110)];
    runs[2].processes.orders.peakRssMb = 155;
    runs[4].processes.orders.peakRssMb = 161;

    expect(peakRssAtMaximum({ runs, maxSustainablePerSec: 300 })).toEqual({ orders: 161, inventory: 145, loyalty: 120 });
    // The 600/s run's peak (200 MB) is the largest, and not the figure asked for.
    expect(Math.max(...runs.map((one) => one.processes.orders.peakRssMb))).toBe(200);
    expect(peakRssAtMaximum({ runs, maxSustainablePerSec: 0 })).toEqual({ orders: NaN, inventory: NaN, loyalty: NaN });
  });

  it('when a part is missing altogether, then the check names it', () => {
    expect(resultsShapeProblems({})).toEqual(
      expect.arrayContaining([
        'relay.ratio is not a number',
        'processes.orders is missing',
        'memory.idleRssMb.loyalty is not a number',
        'machine.nodeVersion is not a string',
        'machine.postgresAutovacuum.on is not a boolean',
        'targets is not a non-empty array',
      ]),
    );
  });
});

describe('latency chart and Markdown report', () => {
  it('when drawn, then the SVG has one line per percentile, a marker per run, and hollow markers where the backlog grew', () => {
    const svg = latencyChartSvg(results().e2e.runs, 'test run');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<polyline/g)).toHaveLength(3);
    expect(svg.match(/<circle [^>]*r="4"/g)).toHaveLength(3 * 3 + 1); // 3 runs x 3 series, plus the legend's
    expect(svg.match(/fill="#ffffff" stroke="#c92a2a"/g)).toHaveLength(1); // the 600/s p99 point
    expect(svg).toContain('10 s'); // the log axis reaches the 45 s p99
  });

  it('when rendered, then the Markdown names the machine, every figure and the chart', () => {
    const markdown = resultsMarkdown(results(), 'latency-vs-load.svg');
    expect(markdown).toContain('2 × Test CPU');
    expect(markdown).toContain('autovacuum on (turned on for this run, then restored)');
    expect(markdown).toContain('| 150 | 30 | 150.0 | 150.0 | 80 ms | 240 ms | 400 ms | 5 ms / 20 ms | flat (0.0/s) | 0 |');
    expect(markdown).toContain('**300 orders/s**');
    expect(markdown).toContain('| **total (all but the load generator)** | **10.00** |');
    expect(markdown).toContain('**200 orders/s**');
    expect(markdown).toContain('![latency against offered load](latency-vs-load.svg)');
    expect(markdown).toContain('| 150 | 0.50 | 0.25 | 6.0 | 14.0 | 9.0 | 1.00 | 1.00 |');
    expect(markdown).toContain('| 150 | 3.0 / 8.0 / 5.0 | 2.5 / 5.0 / 3.0 | 0.5 / 1.0 / 1.0 |');
    expect(markdown).toContain('| 2x | 600 | 290.0 | 300.0 | 50.0 % | in_flight 8000, event_loop_delay_ms 1000 | 0 | 900 ms | 40 ms |');
    expect(markdown).toContain('taken after');
    expect(markdown).toContain('### Memory per app: idle before the load, and peak at the sustained maximum (300/s)');
    expect(markdown).toContain('| orders | 131 | 170 |');
    expect(markdown).toContain(
      '| backlog drain | ≥ 1,000/s | 500/s | 50 % short | [the CPU per order, at full batches](../../docs/performance.md#',
    );
  });

  it('when autovacuum stayed off, then the Markdown says so beside the machine', () => {
    const value = results();
    value.machine.postgresAutovacuum = { on: false, wasOn: false, restored: true, note: 'it could not be turned on' };
    expect(resultsMarkdown(value, 'latency-vs-load.svg')).toContain('autovacuum OFF (it could not be turned on)');
  });
});
