// Whether a soak stayed flat: each figure's mean over its last five minutes against its first five
// after the warm-up, the target's own test. Pure, unit-tested in soak-drift.spec.ts.
import { sampleDeadTuples, type SoakSample } from './soak-results.js';

/** The samples before this are the apps' JIT and pools warming up, not the steady state. */
const SOAK_WARM_UP_MINUTES = 1;
/** Each window compared: the first five minutes after the warm-up, and the last five of the run. */
const SOAK_WINDOW_MINUTES = 5;
/** How far the last window's mean may stray from the first's and still count as flat. */
export const SOAK_FLAT_TOLERANCE = 0.1;

/** One figure: its mean in each window, their ratio, and whether that ratio lies within the tolerance. */
interface DriftFigure {
  first: number;
  last: number;
  /** last / first; NaN when the first window's mean is 0. */
  ratio: number;
  flat: boolean;
}

export interface SoakDrift {
  /** The windows compared, in minutes from the start of the load: (from, to]. */
  firstWindow: [number, number];
  lastWindow: [number, number];
  /** False when the run is too short for two windows that do not overlap: the figures are still given. */
  windowsApart: boolean;
  p99Ms: DriftFigure;
  rssMb: Record<string, DriftFigure>;
  /** By `<database role>.<table>`. */
  deadTuples: Record<string, DriftFigure>;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function figure(first: number[], last: number[]): DriftFigure {
  const a = mean(first);
  const b = mean(last);
  // Both windows empty of a figure (no dead tuple at all) is flat; from nothing to something is not.
  const ratio = a === 0 ? (b === 0 ? 1 : Number.NaN) : b / a;
  // The epsilon: 330 / 300 - 1 is 0.10000000000000009 in floating point, and 10 % is within 10 %.
  return { first: a, last: b, ratio, flat: Math.abs(ratio - 1) <= SOAK_FLAT_TOLERANCE + 1e-9 };
}

/** The middle of the span each sample covers, from the sample before it (the first, from the start of the load). */
function coveredMiddles(samples: readonly SoakSample[]): number[] {
  return samples.map((sample, index) => ((index === 0 ? 0 : samples[index - 1].atMinutes) + sample.atMinutes) / 2);
}

/** The drift of `samples` (a soak of `minutes`); undefined when either window holds no sample. */
export function soakDrift(samples: readonly SoakSample[], minutes: number): SoakDrift | undefined {
  const firstWindow: [number, number] = [SOAK_WARM_UP_MINUTES, SOAK_WARM_UP_MINUTES + SOAK_WINDOW_MINUTES];
  const lastWindow: [number, number] = [Math.max(0, minutes - SOAK_WINDOW_MINUTES), minutes];
  // A sample's p99 and dead-tuple mean cover the time since the sample before it, and it lands a
  // little after its nominal time: the one taken at 1.003 minutes describes minutes 0.5-1, the
  // warm-up. So a sample counts where the middle of what it covers falls, not where it lands; the
  // last one may land after `minutes`.
  const middles = coveredMiddles(samples);
  const inFirst = samples.filter((_, i) => middles[i] > firstWindow[0] && middles[i] <= firstWindow[1]);
  const inLast = samples.filter((_, i) => middles[i] > lastWindow[0]);
  if (inFirst.length === 0 || inLast.length === 0) return undefined;
  const each = <T>(pick: (s: SoakSample) => Record<string, T>) => [...new Set(samples.flatMap((s) => Object.keys(pick(s))))].sort();
  const series = (window: SoakSample[], value: (s: SoakSample) => number | undefined) =>
    window.map(value).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return {
    firstWindow,
    lastWindow,
    windowsApart: lastWindow[0] >= firstWindow[1],
    p99Ms: figure(
      series(inFirst, (s) => s.p99Ms),
      series(inLast, (s) => s.p99Ms),
    ),
    rssMb: Object.fromEntries(
      each((s) => s.rssMb).map((app) => [
        app,
        figure(
          series(inFirst, (s) => s.rssMb[app]),
          series(inLast, (s) => s.rssMb[app]),
        ),
      ]),
    ),
    deadTuples: Object.fromEntries(
      each((s) => s.tables).map((table) => [
        table,
        figure(
          series(inFirst, (s) => sampleDeadTuples(s, table)),
          series(inLast, (s) => sampleDeadTuples(s, table)),
        ),
      ]),
    ),
  };
}

/** One line per figure that is not flat, for the log and the notes; empty when all are. */
function driftFindings(drift: SoakDrift): string[] {
  const pct = (ratio: number) => (Number.isNaN(ratio) ? 'from 0' : `${ratio >= 1 ? '+' : ''}${Math.round((ratio - 1) * 100)} %`);
  const line = (name: string, f: DriftFigure) => `${name}: ${Math.round(f.first)} -> ${Math.round(f.last)} (${pct(f.ratio)})`;
  return [
    ...(drift.p99Ms.flat ? [] : [line('e2e p99, ms', drift.p99Ms)]),
    ...Object.entries(drift.rssMb)
      .filter(([, f]) => !f.flat)
      .map(([app, f]) => line(`RSS ${app}, MB`, f)),
    ...Object.entries(drift.deadTuples)
      .filter(([, f]) => !f.flat)
      .map(([table, f]) => line(`dead tuples ${table}`, f)),
  ];
}

/** The soak's verdict in one line: flat, or which figures are not and by how much. */
export function driftVerdict(drift: SoakDrift): string {
  const findings = driftFindings(drift);
  const windows = `minutes ${drift.lastWindow.join('-')} against ${drift.firstWindow.join('-')}`;
  const verdict =
    findings.length === 0 ? `flat (${windows}, within ${SOAK_FLAT_TOLERANCE * 100} %)` : `not flat (${windows}): ${findings.join('; ')}`;
  return `${verdict}${drift.windowsApart ? '' : ' (the windows overlap: the run is shorter than two)'}`;
}
