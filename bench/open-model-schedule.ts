// When each request of an open-model run leaves. Pure, unit-tested in its own .spec.ts.
//
// Open model: request i leaves at start + i / rate whatever happened to the earlier ones, and its
// latency is measured from that scheduled instant. A closed loop (send, wait, send) slows down with
// the system and hides its queueing ("coordinated omission"); a schedule cannot.

/** Offsets in milliseconds from the run's start, one per request: `i * 1000 / rate`, for `durationMs`. */
export function sendSchedule(ratePerSec: number, durationMs: number): number[] {
  if (!(ratePerSec > 0)) throw new Error(`rate must be positive, got ${ratePerSec}`);
  const count = Math.floor((ratePerSec * durationMs) / 1000);
  return Array.from({ length: count }, (_, index) => (index * 1000) / ratePerSec);
}

/**
 * The index one past the last request due at `elapsedMs`, starting the search at `from`: the
 * generator sends every request in [from, result) on this tick, however late the tick is.
 */
export function dueUntil(schedule: readonly number[], from: number, elapsedMs: number): number {
  let index = from;
  while (index < schedule.length && schedule[index] <= elapsedMs) index += 1;
  return index;
}
