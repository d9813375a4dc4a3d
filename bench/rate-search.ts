// The stepped search for the highest offered rate the loop sustains. Pure, unit-tested in
// rate-search.spec.ts.

export interface RateTrial {
  offeredPerSec: number;
  /** No growing backlog, and the achieved rate kept up with the offered one. */
  sustained: boolean;
}

export interface RateSearchOptions {
  /** Never offer less; the search gives up below it. */
  minPerSec: number;
  /** Never offer more; the search stops when this rate is sustained. */
  maxPerSec: number;
  /** Stop once the sustained and the failed rate are this close (orders/s). */
  resolutionPerSec: number;
}

/** The highest sustained rate tried, 0 when none was. */
export function maxSustained(trials: readonly RateTrial[]): number {
  return Math.max(0, ...trials.filter((trial) => trial.sustained).map((trial) => trial.offeredPerSec));
}

/**
 * The next rate to offer, or `undefined` when the search is done: double while every rate holds,
 * halve while none does, then bisect between the highest sustained and the lowest failed rate.
 */
export function nextOfferedRate(trials: readonly RateTrial[], options: RateSearchOptions): number | undefined {
  if (trials.length === 0) return options.minPerSec;
  const held = maxSustained(trials);
  const failed = trials.filter((trial) => !trial.sustained).map((trial) => trial.offeredPerSec);
  const lowestFailed = failed.length > 0 ? Math.min(...failed.filter((rate) => rate > held)) : Number.POSITIVE_INFINITY;
  let next: number;
  if (held === 0) next = Math.floor(lowestFailed / 2);
  else if (!Number.isFinite(lowestFailed)) next = Math.min(options.maxPerSec, held * 2);
  else next = Math.round((held + lowestFailed) / 2);
  if (held > 0 && Number.isFinite(lowestFailed) && lowestFailed - held <= options.resolutionPerSec) return undefined;
  if (next < options.minPerSec || next > options.maxPerSec) return undefined;
  if (trials.some((trial) => trial.offeredPerSec === next)) return undefined;
  return next;
}

/** What {@link isSustained} looks at in one end-to-end run. */
export interface RunOutcome {
  offeredPerSec: number;
  achievedPerSec: number;
  backlogGrowing: boolean;
  sent: number;
  failedRequests: number;
  unfinished: number;
}

/**
 * A rate is sustained when the backlog did not grow, the loop finished at least 90 % of the offered
 * rate in the run's steady part, at most 1 % of the requests failed, and every accepted order
 * finished before the settle deadline.
 */
export function isSustained(run: RunOutcome): boolean {
  return (
    !run.backlogGrowing && run.achievedPerSec >= 0.9 * run.offeredPerSec && run.failedRequests <= 0.01 * run.sent && run.unfinished === 0
  );
}
