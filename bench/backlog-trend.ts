// Is a backlog growing? Pure, unit-tested in its own .spec.ts.
//
// At a sustainable rate the number of unfinished orders levels off at about rate x latency; above
// it, the count grows by (offered - achieved) per second without end. So the slope of the count over
// the run's last part tells them apart, whatever the latency.

/** The count of unfinished work (orders not yet RESERVED/REJECTED, commands not DONE) at one instant. */
export interface BacklogSample {
  /** Milliseconds since the run's start. */
  atMs: number;
  unfinished: number;
}

export interface BacklogVerdict {
  growing: boolean;
  /** Least-squares slope over the tail, in units per second. */
  slopePerSec: number;
  /** The slope above which the backlog counts as growing. */
  thresholdPerSec: number;
}

/** Least-squares slope of `unfinished` against time, per second; 0 for fewer than two samples. */
export function slopePerSec(samples: readonly BacklogSample[]): number {
  if (samples.length < 2) return 0;
  const meanT = samples.reduce((sum, s) => sum + s.atMs, 0) / samples.length;
  const meanU = samples.reduce((sum, s) => sum + s.unfinished, 0) / samples.length;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    covariance += (s.atMs - meanT) * (s.unfinished - meanU);
    variance += (s.atMs - meanT) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 1000;
}

/**
 * Growing when the slope over the last `tailFraction` of the samples (default half) exceeds
 * `tolerance` (default 5 %) of the offered rate, and at least one unit per second: a loop that
 * falls 5 % behind its offered load never catches up, and one unit per second is noise.
 */
export function backlogVerdict(
  samples: readonly BacklogSample[],
  offeredPerSec: number,
  options: { tailFraction?: number; tolerance?: number } = {},
): BacklogVerdict {
  const { tailFraction = 0.5, tolerance = 0.05 } = options;
  const sorted = [...samples].sort((a, b) => a.atMs - b.atMs);
  const tail = sorted.slice(Math.floor(sorted.length * (1 - tailFraction)));
  const slope = slopePerSec(tail);
  const thresholdPerSec = Math.max(1, tolerance * offeredPerSec);
  return { growing: slope > thresholdPerSec, slopePerSec: slope, thresholdPerSec };
}
