import { performance } from 'node:perf_hooks';
import type { BacklogReading } from './backlog-reading.js';

/** How {@link InFlightLimit} bounds the requests in flight. */
export interface InFlightLimitOptions {
  /**
   * Mean time a request may spend in this process, arrival to answer (`LOAD_SHED_TARGET_LATENCY_MS`).
   * Lower sheds sooner and keeps accepted requests faster; keep it well under
   * `DATABASE_CONNECT_TIMEOUT_MS`, or accepted requests time out waiting for a connection.
   */
  targetLatencyMs: number;
  /**
   * Floor of the bound (`LOAD_SHED_IN_FLIGHT_MIN`): what is admitted while the completion rate is
   * still unknown (start-up, after an idle spell). Lower sheds a burst on a cold process.
   */
  minInFlight: number;
}

/** Completions are counted over windows this long at least, then folded into the smoothed rate. */
const RATE_WINDOW_MS = 250;
/**
 * Time constant of the smoothed rate: a window weighs 1 - e^(-length/this), so the rate follows a
 * change within about a second, and a long stall (one long window without completions) brings it
 * to nearly zero at once.
 */
const RATE_TIME_CONSTANT_MS = 1000;
/**
 * The bound follows the best smoothed rate of this long: a short stall (a GC pause, a neighbour
 * taking the CPU) lowers the current rate just when requests pile up, and a bound read from it
 * would shed a healthy loop at its first hiccup. What the process sustained a few seconds ago it
 * can sustain again; a lasting loss of capacity lowers the bound once this has passed.
 */
const CAPACITY_MEMORY_MS = 10_000;

/**
 * `in_flight`: requests of the shed routes in this process, admitted and not yet answered, against
 * an adaptive bound read at no cost on every request.
 *
 * The bound is Little's law, L = λ·W: the requests this process completes per second (λ, smoothed
 * over a second, the best of the last {@link CAPACITY_MEMORY_MS}) times the mean time a request may take (W, the target latency).
 * While requests finish within the target, in flight stays under the bound and nothing is shed;
 * once the process falls behind, requests wait longer, in flight grows past λ·W, and what arrives
 * is refused until it is back within the target. A fixed number would have to be tuned per machine
 * and per deployment (150/s on two cores, several thousand on a larger host); λ·W follows whatever
 * the process achieves, and the only setting is a latency, which an operator can reason about.
 * Counted from arrival (the front door, or Fastify's `onRequest`), so requests waiting behind body
 * parsing, authentication and the database pool count too, unlike the sampled figures, which lag
 * by a sample interval.
 */
export class InFlightLimit {
  private inFlight = 0;
  private completedInWindow = 0;
  private windowStartMs: number;
  /** Completions per millisecond, smoothed; undefined until the first window closed. */
  private ratePerMs: number | undefined;
  /** The smoothed rate at the end of each window of the last {@link CAPACITY_MEMORY_MS}, oldest first. */
  private readonly recentRates: { atMs: number; ratePerMs: number }[] = [];

  constructor(
    private readonly options: InFlightLimitOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStartMs = now();
  }

  /** The bound in force: λ·W, never under the floor. */
  bound(): number {
    this.roll();
    const best = this.recentRates.reduce((max, window) => Math.max(max, window.ratePerMs), 0);
    return Math.max(this.options.minInFlight, Math.floor(best * this.options.targetLatencyMs));
  }

  /** Requests admitted and not yet answered. */
  get count(): number {
    return this.inFlight;
  }

  /** The figure now, as a reading beside its bound (for the gauges and the 503's detail). */
  reading(): BacklogReading {
    return { signal: 'in_flight', value: this.inFlight, bound: this.bound() };
  }

  /**
   * Admits one request, unless `enforce` and admitting it would put in flight past the bound: then
   * it is not counted and the reading that refused it is returned. Every admitted request must be
   * matched by one {@link leave}.
   */
  tryEnter(enforce = true): BacklogReading | undefined {
    if (enforce && this.inFlight + 1 > this.bound()) return { signal: 'in_flight', value: this.inFlight + 1, bound: this.bound() };
    this.inFlight += 1;
    return undefined;
  }

  /** One admitted request answered (or its client gone). */
  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.completedInWindow += 1;
    this.roll();
  }

  private roll(): void {
    const now = this.now();
    const elapsed = now - this.windowStartMs;
    if (elapsed < RATE_WINDOW_MS) return;
    const observed = this.completedInWindow / elapsed;
    const weight = 1 - Math.exp(-elapsed / RATE_TIME_CONSTANT_MS);
    this.ratePerMs = this.ratePerMs === undefined ? observed : weight * observed + (1 - weight) * this.ratePerMs;
    this.completedInWindow = 0;
    this.windowStartMs = now;
    this.recentRates.push({ atMs: now, ratePerMs: this.ratePerMs });
    while (this.recentRates.length > 0 && now - this.recentRates[0].atMs >= CAPACITY_MEMORY_MS) this.recentRates.shift();
  }
}
