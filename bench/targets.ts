// The goodput targets the project set itself, each judged against a results file: the table of
// latest.md and, rendered from a committed full run, docs/performance.md's. Declared once here so that
// neither page restates a bound or a figure by hand. Pure, unit-tested in targets.spec.ts.
import type { BenchResults, E2eRun } from './bench-results.js';
import { SOAK_FLAT_TOLERANCE } from './soak-drift.js';
import type { SoakResults } from './soak-results.js';

/** docs/performance.md's section that says what bounds a figure, by its heading's anchor. */
type BoundSection = string;

/** A figure read from a results file: its value and, when it is the worst of several, which. */
interface Reading {
  value: number;
  detail?: string;
}

interface Target {
  id: string;
  label: string;
  /** `atMost`: the figure must not exceed `limit`; `atLeast`: it must reach it. */
  direction: 'atMost' | 'atLeast';
  limit: number;
  unit: string;
  read(results: BenchResults): Reading | undefined;
  /** What keeps the figure from its limit where it was missed, as measured. */
  bound: string;
  boundSection: BoundSection;
}

/** One target against one run. `met` is null when the run did not measure the figure. */
export interface TargetVerdict {
  id: string;
  label: string;
  required: string;
  measured: string;
  value: number | null;
  met: boolean | null;
  /** How far the figure is from its limit, as a share of the limit: `38 % over`, `51 % short`. */
  byHowMuch: string;
  bound: string;
  boundSection: BoundSection;
}

/** The fixed rate of the targets' latency and CPU figures, and the rate of the memory target. */
const MODERATE_RATE = 150;
const BUSY_RATE = 300;
const GOODPUT_SHARE_PERCENT = 90;

const CPU_SECTION = 'the-cpu-per-order';
const MAXIMUM_SECTION = 'the-sustained-maximum';
const LINGER_SECTION = 'latency-at-a-moderate-rate';
const REFUSAL_SECTION = 'goodput-past-capacity-and-the-relay';
const MEMORY_SECTION = 'memory-per-app';
const SOAK_SECTION = 'the-soak';

/** The run at `offeredPerSec` (the last, if the search offered it twice). */
function runAt(results: BenchResults, offeredPerSec: number): E2eRun | undefined {
  return results.e2e.runs.filter((run) => run.offeredPerSec === offeredPerSec).at(-1);
}

const finite = (value: number | undefined): value is number => typeof value === 'number' && Number.isFinite(value);
const reading = (value: number | undefined, detail?: string): Reading | undefined =>
  finite(value) ? { value, ...(detail ? { detail } : {}) } : undefined;

/** The largest of named figures, naming it, and with `listAll` every figure beside it. */
function largest(figures: Record<string, number | undefined>, unit: string, listAll: boolean): Reading | undefined {
  const named = Object.entries(figures).filter((entry): entry is [string, number] => finite(entry[1]));
  if (named.length === 0) return undefined;
  const [name, value] = named.reduce((worst, entry) => (entry[1] > worst[1] ? entry : worst));
  return { value, detail: listAll ? named.map(([n, v]) => `${n} ${round(v)}${unit}`).join(', ') : name };
}

function overloadShare(results: BenchResults, multiple: number): Reading | undefined {
  const run = results.overload.find((candidate) => candidate.multiple === multiple);
  const maximum = results.e2e.maxSustainablePerSec;
  if (!run || !(maximum > 0)) return undefined;
  return reading(
    (run.goodputPerSec / maximum) * 100,
    `${round(run.goodputPerSec)}/s of ${round(maximum)}/s, offered ${round(run.offeredPerSec)}/s`,
  );
}

const TARGETS: readonly Target[] = [
  {
    id: 'cpu-per-order-moderate',
    label: `CPU per order at ${MODERATE_RATE}/s, every process but the load generator, after the warm-up`,
    direction: 'atMost',
    limit: 5,
    unit: ' ms',
    read: (results) => reading(runAt(results, MODERATE_RATE)?.cpu.totalMsPerOrder),
    bound: 'what Node, the frameworks, Postgres and the broker spend per message; at this rate batches carry few orders',
    boundSection: CPU_SECTION,
  },
  {
    id: 'cpu-per-order-maximum',
    label: 'CPU per order at the sustained maximum',
    direction: 'atMost',
    limit: 3,
    unit: ' ms',
    read: (results) => reading(runAt(results, results.e2e.maxSustainablePerSec)?.cpu.totalMsPerOrder),
    bound: 'the same per-message cost, with fuller batches',
    boundSection: CPU_SECTION,
  },
  {
    id: 'sustained',
    label: 'highest rate sustained without a growing backlog',
    direction: 'atLeast',
    limit: 500,
    unit: '/s',
    read: (results) => reading(results.e2e.maxSustainablePerSec > 0 ? results.e2e.maxSustainablePerSec : undefined),
    bound: "the two cores at the CPU per order above; past it the door refuses more than the search's 1 %",
    boundSection: MAXIMUM_SECTION,
  },
  {
    id: 'p99-moderate',
    label: `end-to-end p99 at ${MODERATE_RATE}/s`,
    direction: 'atMost',
    limit: 300,
    unit: ' ms',
    read: (results) => reading(runAt(results, MODERATE_RATE)?.p99Ms),
    bound: 'queueing in a loop whose two cores every process shares, and a 40 ms linger in each of three stages',
    boundSection: LINGER_SECTION,
  },
  {
    id: 'p99-busy',
    label: `end-to-end p99 at ${BUSY_RATE}/s`,
    direction: 'atMost',
    limit: 500,
    unit: ' ms',
    read: (results) => reading(runAt(results, BUSY_RATE)?.p99Ms),
    bound: 'queueing: this rate is at or past the sustained maximum',
    boundSection: MAXIMUM_SECTION,
  },
  {
    id: 'stage-p99-moderate',
    label: `slowest stage's p99 at ${MODERATE_RATE}/s`,
    direction: 'atMost',
    limit: 100,
    unit: ' ms',
    read: (results) => {
      const stages = runAt(results, MODERATE_RATE)?.stages ?? {};
      return largest(Object.fromEntries(Object.entries(stages).map(([name, stage]) => [name, stage.p99Ms])), ' ms', false);
    },
    bound: 'the same queueing and lingers, one stage at a time',
    boundSection: LINGER_SECTION,
  },
  {
    id: 'goodput-2x',
    label: 'goodput at twice the sustained maximum, as a share of it',
    direction: 'atLeast',
    limit: GOODPUT_SHARE_PERCENT,
    unit: ' %',
    read: (results) => overloadShare(results, 2),
    bound: "refusing costs the orders process's one thread about twice what a bare Node server pays, beside the orders it serves",
    boundSection: REFUSAL_SECTION,
  },
  {
    id: 'goodput-4x',
    label: 'goodput at four times the sustained maximum, as a share of it',
    direction: 'atLeast',
    limit: GOODPUT_SHARE_PERCENT,
    unit: ' %',
    read: (results) => overloadShare(results, 4),
    bound: "refusing costs the orders process's one thread about twice what a bare Node server pays, beside the orders it serves",
    boundSection: REFUSAL_SECTION,
  },
  {
    id: 'accepted-lost',
    label: 'accepted orders not final after the overload runs',
    direction: 'atMost',
    limit: 0,
    unit: '',
    read: (results) =>
      results.overload.length > 0 ? reading(results.overload.reduce((sum, run) => sum + run.lostAccepted, 0)) : undefined,
    bound: 'nothing: an accepted order is never dropped',
    boundSection: REFUSAL_SECTION,
  },
  {
    id: 'drain',
    label: 'backlog drain',
    direction: 'atLeast',
    limit: 1000,
    unit: '/s',
    read: (results) => reading(results.e2e.drainPerSec),
    bound: 'the CPU per order, at full batches',
    boundSection: CPU_SECTION,
  },
  {
    id: 'http-ratio',
    label: '`POST /orders` against a plain insert with its outbox row',
    direction: 'atLeast',
    limit: 0.7,
    unit: '',
    read: (results) => reading(results.http.withOutboxPerSec / results.http.plainWithOutboxPerSec),
    bound: "Nest's and Fastify's request handling, authentication and TypeORM per request",
    boundSection: CPU_SECTION,
  },
  {
    id: 'relay-ratio',
    label: 'outbox relay against a raw producer',
    direction: 'atLeast',
    limit: 0.8,
    unit: '',
    read: (results) => reading(results.relay.ratio),
    bound: 'the broker answering while Postgres works beside it on the same two cores',
    boundSection: REFUSAL_SECTION,
  },
  {
    id: 'peak-rss-busy',
    label: `peak RSS per app at ${BUSY_RATE}/s`,
    direction: 'atMost',
    limit: 150,
    unit: ' MB',
    read: (results) => {
      const run = runAt(results, BUSY_RATE);
      return run
        ? largest(Object.fromEntries(Object.entries(run.processes).map(([app, cost]) => [app, cost.peakRssMb])), ' MB', true)
        : undefined;
    },
    bound: "the dependencies' code loaded at start, and V8's room between full collections under load",
    boundSection: MEMORY_SECTION,
  },
];

function round(value: number): string {
  const digits = Math.abs(value) < 10 && !Number.isInteger(value) ? 2 : 0;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function required(target: Pick<Target, 'direction' | 'limit' | 'unit'>): string {
  if (target.direction === 'atMost' && target.limit === 0) return 'none';
  return `${target.direction === 'atMost' ? '≤' : '≥'} ${target.limit.toLocaleString('en-US')}${target.unit}`;
}

/** How far `value` lies past `limit`, as a share of the limit. */
function distance(direction: Target['direction'], limit: number, value: number): string {
  if (limit === 0) return `${round(value)} over`;
  const share = Math.round((Math.abs(value - limit) / limit) * 100);
  return `${share} % ${direction === 'atMost' ? 'over' : 'short'}`;
}

/** Every target against `results`, in the order the issue set them. */
export function judgeTargets(results: BenchResults): TargetVerdict[] {
  return TARGETS.map((target) => {
    const figure = target.read(results);
    const verdict = {
      id: target.id,
      label: target.label,
      required: required(target),
      bound: target.bound,
      boundSection: target.boundSection,
    };
    if (!figure) return { ...verdict, measured: 'not measured', value: null, met: null, byHowMuch: 'not measured' };
    const met = target.direction === 'atMost' ? figure.value <= target.limit : figure.value >= target.limit;
    return {
      ...verdict,
      measured: `${round(figure.value)}${target.unit}${figure.detail ? ` (${figure.detail})` : ''}`,
      value: figure.value,
      met,
      byHowMuch: met ? 'met' : distance(target.direction, target.limit, figure.value),
    };
  });
}

/** The minutes and share of the maximum a soak must run at to count for the target. */
const SOAK_MINUTES = 20;

/** The soak target: p99, RSS and dead tuples flat over 20 minutes, autovacuum on. */
export function judgeSoak(soak: SoakResults): TargetVerdict {
  const tolerance = Math.round(SOAK_FLAT_TOLERANCE * 100);
  const verdict = {
    id: 'soak-flat',
    label: `a ${SOAK_MINUTES}-minute soak at 70 % of the maximum, autovacuum on: p99, RSS per app and dead tuples per table`,
    required: `last five minutes within ${tolerance} % of the first five`,
    bound:
      "five-minute means of autovacuum's saw-tooth, or of a few slow half-minutes on two shared cores, move either way; what grew with the tables (autoanalyze of JSON, the soak counting rows) no longer does",
    boundSection: SOAK_SECTION,
  };
  const drift = soak.drift;
  if (!drift || !soak.isSoak || !drift.windowsApart || soak.minutes < SOAK_MINUTES)
    return { ...verdict, measured: 'no soak of the length, autovacuum on', value: null, met: null, byHowMuch: 'not measured' };
  const figures = [
    ['p99', drift.p99Ms],
    ...Object.entries(drift.rssMb).map(([app, figure]) => [`RSS ${app}`, figure] as const),
    ...Object.entries(drift.deadTuples).map(([table, figure]) => [`dead tuples ${table}`, figure] as const),
  ] as const;
  const notFlat = figures.filter(([, figure]) => !figure.flat).map(([name]) => name);
  const changes = figures.map(([, figure]) => figure.ratio).filter(Number.isFinite);
  const widest = Math.max(0, ...changes.map((ratio) => Math.abs(ratio - 1)));
  return {
    ...verdict,
    measured: `${figures.length - notFlat.length} of ${figures.length} figures flat, the widest change ${Math.round(widest * 100)} % (${round(soak.offeredPerSec)}/s for ${soak.minutes} min)`,
    value: widest,
    met: notFlat.length === 0,
    byHowMuch: notFlat.length === 0 ? 'met' : `not flat: ${notFlat.join(', ')}`,
  };
}

/**
 * The verdicts as a Markdown table whose links to docs/performance.md start from `performancePage`
 * (the page's path relative to where the table is written; empty on that page itself).
 */
export function targetsTable(verdicts: readonly TargetVerdict[], performancePage: string): string[] {
  return [
    '| target | required | measured | met, or by how much missed | what bounds it |',
    '|---|---|---|---|---|',
    ...verdicts.map(
      (verdict) =>
        `| ${verdict.label} | ${verdict.required} | ${verdict.measured} | ${verdict.met ? '**met**' : verdict.byHowMuch} | ${verdict.met ? '' : `[${verdict.bound}](${performancePage}#${verdict.boundSection})`} |`,
    ),
  ];
}
