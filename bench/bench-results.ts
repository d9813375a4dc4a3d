// The shape of bench/results/latest.json, and a check of it. Pure, unit-tested in
// bench-results.spec.ts. More fields than the issue asks for are welcome; none of these may be
// missing, because the README and whoever compares two runs read them.
import type { AutovacuumState } from './autovacuum-as-in-production.js';
import type { DrainResult } from './backlog-drain.bench.js';
import { type LayerResult, layersShapeProblems } from './layer-passes.js';
import type { LoopCpu } from './loop-cpu.js';
import type { RequestsPerOrder } from './request-counts.js';
import type { TargetVerdict } from './targets.js';
import type { WarmUp } from './warm-up.js';

/**
 * One offered rate of the end-to-end run. Latencies: scheduled send → order RESERVED/REJECTED committed.
 * Requests per order (Kafka by API, Postgres transactions and statements, HTTP by app) count the
 * whole loop between a reading before the load and one after it settled, over the orders finished.
 */
export interface E2eRun extends RequestsPerOrder {
  offeredPerSec: number;
  durationSec: number;
  /** Orders finished per second in the run's steady part (its last two thirds). */
  achievedPerSec: number;
  /** `POST /orders` answered 201 per second over the schedule. */
  acceptedPerSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** POST /orders answered 201, from the scheduled send: the HTTP side's share. */
  answerP50Ms: number;
  answerP99Ms: number;
  backlogGrowing: boolean;
  /** Slope of unfinished orders (and loyalty commands) over the last half, per second. */
  backlogSlopePerSec: number;
  /** Sent, answered 201, finished within the deadline, and failed requests. */
  sent: number;
  accepted: number;
  finished: number;
  failedRequests: number;
  /** Requests answered 503 SERVER.OVERLOADED (load shedding); part of failedRequests. */
  shedRequests: number;
  /** The same refusals by the backlog figure past its bound, as the apps counted them (`http_requests_shed_total{signal}`). */
  shedBySignal: Record<string, number>;
  /** Orders never finished before the deadline; their latency counts as (deadline - scheduled), a lower bound. */
  unfinished: number;
  /** Final orders whose updated_at did not move past created_at: their latency cannot be measured (should be 0). */
  finalTimestampNotMoved: number;
  /** Per stage, p50/p95/p99 in ms, from the tables' own timestamps. */
  stages: Record<string, { count: number; p50Ms: number; p95Ms: number; p99Ms: number }>;
  /** Per app process during this run. */
  processes: Record<string, ProcessCost>;
  /** CPU per order of every process of the loop (apps, Postgres, broker), the load generator apart. */
  cpu: LoopCpu;
}

export interface ProcessCost {
  cpuMsPerOrder: number;
  peakRssMb: number;
}

/** What each app holds resident with no order in flight, and at the highest rate the loop sustained. */
export interface AppMemory {
  /**
   * VmRSS of each app before the end-to-end load, MB: the median of readings taken after
   * `IDLE_SETTLE_MS` with nothing in flight (bench/idle-rss.ts). Orders and inventory were just
   * started; loyalty already served the inbox section's calls, if it ran.
   */
  idleRssMb: Record<LoopApp, number>;
  /** The peak VmRSS of each app during the run at `e2e.maxSustainablePerSec`, MB. */
  peakRssMbAtMaximum: Record<LoopApp, number>;
}

/** A run past the sustained maximum: does the door keep goodput near the maximum, and lose nothing? */
interface OverloadRun {
  /** The offered rate as a multiple of `e2e.maxSustainablePerSec` (2, 4). */
  multiple: number;
  offeredPerSec: number;
  /** Orders finished per second in the run's steady part. */
  goodputPerSec: number;
  /** Share of the requests answered 503 (shed at the door). */
  shedShare: number;
  /** The refusals by the figure past its bound (in_flight, event_loop_delay_ms, outbox_pending, ...): what bounded the goodput. */
  shedBySignal: Record<string, number>;
  acceptedPerSec: number;
  /** Accepted orders still not final once the run settled: must be 0. */
  lostAccepted: number;
  p99Ms: number;
  answerP99Ms: number;
}

interface MachineFacts {
  cpuCount: number;
  cpuModel: string;
  nodeVersion: string;
  kafkaVersion: string;
  postgresVersion: string;
  platform: string;
  totalMemoryMb: number;
  loadAverageAtStart: number[];
  /** The server's autovacuum during the run: turned on as production runs it, and put back afterwards. */
  postgresAutovacuum: AutovacuumState;
}

export interface BenchResults {
  mode: 'quick' | 'full';
  startedAt: string;
  finishedAt: string;
  machine: MachineFacts;
  relay: { ratio: number; baselinePerSec: number; relayPerSec: number; messages: number; batchSize: number; repetitions: number };
  inbox: {
    /** The fair figure: the inventory app with its relay and loyalty dispatcher idle, as the plain consumer has none. */
    ratio: number;
    inventoryPerSec: number;
    plainPerSec: number;
    /** The inventory app as it runs in production, relay and dispatcher working during the drain, against the same plain consumer. */
    fullAppPerSec: number;
    fullAppRatio: number;
    oneByOnePerSec: number;
    oneByOneRatio: number;
    messages: number;
    plainConcurrency: number;
  };
  http: {
    withOutboxPerSec: number;
    withoutOutboxPerSec: number;
    dualWritePerSec: number;
    /** The plain server with the outbox row too: the outbox's own cost without Nest and TypeORM. */
    plainWithOutboxPerSec: number;
    concurrency: number;
    /** Length of one round; each figure above is the median of `rounds` interleaved rounds. */
    durationSec: number;
    rounds: number;
    /** Each server's requests/s in each round; absent in files written before the rounds were interleaved. */
    perRound?: Record<'orders' | 'insert' | 'outbox' | 'dualWrite', number[]>;
  };
  e2e: {
    /** The load before the fixed run, until the loop's CPU per order settled; absent when the section did not run. */
    warmUp?: WarmUp;
    runs: E2eRun[];
    maxSustainablePerSec: number;
    drainPerSec: number;
    /** The drain run as measured; its rate is `drainPerSec` above. */
    drain: Omit<DrainResult, 'drainPerSec'>;
  };
  /** 2x and 4x the sustained maximum, when the overload section ran. */
  overload: OverloadRun[];
  /** Each speed-up layer on and off, in the same run (layer-passes.ts); empty when the section did not run. */
  layers: LayerResult[];
  processes: Record<'orders' | 'inventory' | 'loyalty', ProcessCost | Record<string, never>>;
  /** Resident memory per app, at idle and at the sustained maximum; NaN (null in the file) when not measured. */
  memory: AppMemory;
  /** The loop's CPU per order at the fixed offered rate (the first end-to-end run). */
  cpu: LoopCpu;
  /** Each of the project's targets against this run (targets.ts): met, missed by how much, or not measured. */
  targets: TargetVerdict[];
  notes: string[];
}

const isNumber = (value: unknown) => typeof value === 'number';

/** The process groups whose CPU per order makes up `cpu.totalMsPerOrder`. */
const LOOP_PROCESS_GROUPS = ['orders', 'inventory', 'loyalty', 'postgres', 'kafka'] as const;
/** The apps of the loop, each with its own database. */
export const LOOP_APPS = ['orders', 'inventory', 'loyalty'] as const;
const POSTGRES_FIGURES = ['transactionsPerOrder', 'statementsPerOrder', 'roundTripsPerOrder'] as const;

type LoopApp = (typeof LOOP_APPS)[number];

/** The memory figures before anything was measured: NaN (null in the file). */
export function appMemoryPlaceholder(): AppMemory {
  const unmeasured = () => Object.fromEntries(LOOP_APPS.map((app) => [app, Number.NaN])) as Record<LoopApp, number>;
  return { idleRssMb: unmeasured(), peakRssMbAtMaximum: unmeasured() };
}

/**
 * Each app's peak RSS in the run at the sustained maximum (the last run at that offered rate, the
 * one the search settled on); NaN for every app when no rate was sustained.
 */
export function peakRssAtMaximum(e2e: Pick<BenchResults['e2e'], 'runs' | 'maxSustainablePerSec'>): Record<LoopApp, number> {
  const atMaximum = e2e.runs.filter((run) => run.offeredPerSec === e2e.maxSustainablePerSec).at(-1);
  return Object.fromEntries(LOOP_APPS.map((app) => [app, atMaximum?.processes[app]?.peakRssMb ?? Number.NaN])) as Record<LoopApp, number>;
}

/** The loop's CPU before anything was measured: unmeasured, so NaN (null in the file). */
export function loopCpuPlaceholder(cores: number): LoopCpu {
  return {
    totalMsPerOrder: Number.NaN,
    byProcess: Object.fromEntries(LOOP_PROCESS_GROUPS.map((name) => [name, Number.NaN])),
    loadGeneratorMsPerOrder: Number.NaN,
    ceilingPerSec: Number.NaN,
    cores,
    orders: 0,
  };
}

/** Every problem with `value` as a {@link BenchResults}, by path; empty when it has the shape. */
export function resultsShapeProblems(value: unknown): string[] {
  const problems: string[] = [];
  const at = (path: string): unknown =>
    path
      .split('.')
      .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), value);
  const expectNumber = (path: string) => {
    if (!isNumber(at(path))) problems.push(`${path} is not a number`);
  };
  for (const path of ['relay.ratio', 'inbox.ratio', 'http.withOutboxPerSec', 'http.withoutOutboxPerSec', 'http.dualWritePerSec'])
    expectNumber(path);
  for (const path of ['e2e.maxSustainablePerSec', 'e2e.drainPerSec', 'machine.cpuCount']) expectNumber(path);
  for (const path of ['cpu.totalMsPerOrder', 'cpu.ceilingPerSec', 'cpu.loadGeneratorMsPerOrder']) expectNumber(path);
  for (const name of LOOP_PROCESS_GROUPS) expectNumber(`cpu.byProcess.${name}`);
  const runs = at('e2e.runs');
  if (!Array.isArray(runs) || runs.length === 0) problems.push('e2e.runs is not a non-empty array');
  else {
    runs.forEach((run: unknown, index) => {
      for (const key of ['offeredPerSec', 'achievedPerSec', 'p50Ms', 'p95Ms', 'p99Ms']) {
        if (!isNumber((run as Record<string, unknown>)?.[key])) problems.push(`e2e.runs.${index}.${key} is not a number`);
      }
      const record = run as { kafkaRequestsPerOrder?: unknown; postgres?: Record<string, unknown> } | undefined;
      if (!record?.kafkaRequestsPerOrder || typeof record.kafkaRequestsPerOrder !== 'object')
        problems.push(`e2e.runs.${index}.kafkaRequestsPerOrder is missing`);
      for (const key of POSTGRES_FIGURES)
        if (!isNumber(record?.postgres?.[key])) problems.push(`e2e.runs.${index}.postgres.${key} is not a number`);
      const byService = record?.postgres?.byService as Record<string, Record<string, unknown> | undefined> | undefined;
      for (const app of LOOP_APPS)
        for (const key of POSTGRES_FIGURES)
          if (!isNumber(byService?.[app]?.[key])) problems.push(`e2e.runs.${index}.postgres.byService.${app}.${key} is not a number`);
      if (typeof (run as Record<string, unknown>)?.backlogGrowing !== 'boolean')
        problems.push(`e2e.runs.${index}.backlogGrowing is not a boolean`);
    });
  }
  const overload = at('overload');
  if (!Array.isArray(overload)) problems.push('overload is not an array');
  else
    overload.forEach((run: Record<string, unknown>, index) => {
      for (const key of ['offeredPerSec', 'goodputPerSec', 'shedShare', 'lostAccepted'])
        if (!isNumber(run?.[key])) problems.push(`overload.${index}.${key} is not a number`);
      if (!run?.shedBySignal || typeof run.shedBySignal !== 'object') problems.push(`overload.${index}.shedBySignal is missing`);
    });
  problems.push(...layersShapeProblems(at('layers')));
  for (const service of LOOP_APPS) {
    const cost = at(`processes.${service}`);
    if (!cost || typeof cost !== 'object') problems.push(`processes.${service} is missing`);
    expectNumber(`memory.idleRssMb.${service}`);
    expectNumber(`memory.peakRssMbAtMaximum.${service}`);
  }
  const targets = at('targets');
  if (!Array.isArray(targets) || targets.length === 0) problems.push('targets is not a non-empty array');
  else
    targets.forEach((verdict: Record<string, unknown>, index) => {
      if (typeof verdict?.id !== 'string') problems.push(`targets.${index}.id is not a string`);
      if (!(typeof verdict?.met === 'boolean' || verdict?.met === null))
        problems.push(`targets.${index}.met is neither a boolean nor null`);
    });
  if (typeof at('machine.nodeVersion') !== 'string') problems.push('machine.nodeVersion is not a string');
  if (typeof at('machine.postgresAutovacuum.on') !== 'boolean') problems.push('machine.postgresAutovacuum.on is not a boolean');
  return problems;
}

/**
 * JSON has no NaN or Infinity: a figure that could not be measured is written as null (and shows
 * as such in the file), never as a number nobody measured.
 */
export function toJson(results: BenchResults): string {
  return JSON.stringify(results, (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2);
}

/** The drain figures before the drain ran: unmeasured, so NaN (null in the file). */
export function backlogDrainPlaceholder(): BenchResults['e2e']['drain'] {
  return {
    orders: 0,
    placedWhileStopped: 0,
    doorClosed: false,
    complete: false,
    finished: 0,
    seconds: Number.NaN,
    inventoryStartSec: Number.NaN,
    ordersFinishedSec: Number.NaN,
    loyaltyDoneSec: Number.NaN,
  };
}
