// When the loop is warm: the end-to-end section loads it at the fixed rate, window after window,
// until its CPU per order stops falling, before it measures anything. Pure, unit-tested in
// warm-up.spec.ts; run-bench.ts drives the windows.

/** How far below the lowest window before them a later window must come to count as still falling. */
const WARM_UP_TOLERANCE = 0.05;
/** Windows in a row that must find no such low: one could miss it by chance while the JIT still compiles. */
const WARM_UP_QUIET_WINDOWS = 3;

/** The warm-up as it ran: each window's CPU per order of the whole loop, and whether they settled. */
export interface WarmUp {
  /** Load at the fixed rate before the first window, not measured. */
  initialMs: number;
  windowMs: number;
  /** The whole loop's CPU per order (all but the load generator) in each window, in order. */
  cpuMsPerOrder: number[];
  /** False when the cap came first: the figures after it may still hold some of the warm-up. */
  settled: boolean;
}

/**
 * Whether the loop's CPU per order stopped falling: none of the last {@link WARM_UP_QUIET_WINDOWS}
 * windows came more than {@link WARM_UP_TOLERANCE} below the lowest window before them. A loop
 * started cold spends its first minutes compiling (V8 in each app, the JIT of the broker's JVM) and
 * filling caches, so its figure falls by more than the noise, window after window
 * (docs/decisions/0018-figures-taken-after-the-warm-up.md). Once warm, 10-s windows scatter by up to a tenth either way, so only a
 * fall counts: a window above the others is noise, not warm-up.
 */
export function warmUpSettled(cpuMsPerOrder: readonly number[]): boolean {
  if (cpuMsPerOrder.length <= WARM_UP_QUIET_WINDOWS) return false;
  if (!cpuMsPerOrder.every((value) => Number.isFinite(value) && value > 0)) return false;
  const lowestBefore = Math.min(...cpuMsPerOrder.slice(0, -WARM_UP_QUIET_WINDOWS));
  const lowestSince = Math.min(...cpuMsPerOrder.slice(-WARM_UP_QUIET_WINDOWS));
  return lowestSince >= lowestBefore * (1 - WARM_UP_TOLERANCE) - 1e-9;
}

/** One line for the log and the results page: the windows' CPU per order and the verdict. */
export function warmUpSummary(warmUp: WarmUp): string {
  const seconds = (warmUp.initialMs + warmUp.cpuMsPerOrder.length * warmUp.windowMs) / 1000;
  const series = warmUp.cpuMsPerOrder.map((value) => value.toFixed(2)).join(', ');
  const verdict = warmUp.settled
    ? `settled: the last ${WARM_UP_QUIET_WINDOWS} none more than ${WARM_UP_TOLERANCE * 100} % below the lowest before them`
    : `not settled within ${seconds} s: the figures may still hold some warm-up`;
  return `warm-up of ${seconds} s: CPU per order of its ${warmUp.windowMs / 1000}-s windows ${series} ms (${verdict})`;
}
