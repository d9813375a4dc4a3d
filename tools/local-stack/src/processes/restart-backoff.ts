/** How long `npm start` waits before it starts an app that died again, and when it forgets the deaths. */
export interface RestartBackoffOptions {
  /** The wait after a death of an app that had run a while. */
  firstMs: number;
  /** The longest wait: an app that keeps dying is tried again this often. */
  maxMs: number;
  /** An app that ran this long since its last start starts over at `firstMs` when it dies. */
  healthyAfterMs: number;
}

export const DEFAULT_RESTART_BACKOFF: RestartBackoffOptions = { firstMs: 1000, maxMs: 30_000, healthyAfterMs: 60_000 };

/**
 * The waits between restarts of one app: `firstMs`, doubling up to `maxMs` while it keeps dying
 * soon after each start. Why restart at all: one record that kills a consumer must not take the
 * whole local stack down; the inbox's crash-loop breaker dead-letters such a record after a few
 * deaths, and the restarted app goes on. Why a backoff: an app that dies at once for good (a bad
 * setting) must not spin the CPU, and its output stays readable.
 */
export class RestartBackoff {
  private deaths = 0;
  private startedAt: number;

  constructor(
    private readonly options: RestartBackoffOptions = DEFAULT_RESTART_BACKOFF,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  /** The app was (re)started now. */
  started(): void {
    this.startedAt = this.now();
  }

  /** The app died now: how long to wait before starting it again, and how many deaths in a row that makes. */
  afterDeath(): { delayMs: number; deathsInARow: number } {
    if (this.now() - this.startedAt >= this.options.healthyAfterMs) this.deaths = 0;
    const delayMs = Math.min(this.options.maxMs, this.options.firstMs * 2 ** this.deaths);
    this.deaths += 1;
    return { delayMs, deathsInARow: this.deaths };
  }
}
