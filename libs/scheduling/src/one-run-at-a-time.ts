/** What {@link OneRunAtATime} runs: one run of a job, told through `signal` when the job stops. */
export type JobRun<T> = (signal: AbortSignal) => Promise<T>;

/**
 * One run at a time, wake early, stop cleanly: the one implementation of what the outbox relay, the
 * command dispatcher and every retention job need, instead of a copy in each.
 *
 * - **One run at a time.** Runs never overlap: a slow run and the next tick (or NOTIFY, or cron)
 *   cannot work on the same rows in parallel.
 * - **Wake early.** {@link wake} during a run schedules exactly one more run right after it, so a
 *   wake-up that raced the run's read (a NOTIFY for a row committed just after the SELECT) is never
 *   lost, and a run may call {@link wake} itself to say "more is due now". Many wake-ups during one
 *   run still give one more run, not many.
 * - **Stop cleanly.** {@link stop} starts no new run, aborts {@link signal} (a run abandons a send
 *   it can afford to repeat) and resolves once the run in flight has finished, so shutdown awaits a
 *   commit instead of cutting it; Nest destroys modules before the DataSource closes.
 * - **Batching that adapts** (`lingerMs`, off by default). A wake-up that comes less than
 *   `lingerMs` after the last run started waits out the rest of it, so under load runs start at
 *   most once per `lingerMs` and each carries what arrived meanwhile (a relay batch, a claim of
 *   commands), while a wake-up after a quiet spell runs at once: a lone item still goes in
 *   milliseconds. A run that takes longer than `lingerMs` is followed at once, so a saturated job
 *   never waits. {@link wake} with `now` (a run saying "more is due now") and {@link run} start
 *   at once when nothing is in flight; a call during a linger joins the run waiting in it.
 *
 * Errors: {@link run} rejects with the run's error; a run started by {@link wake} reports it to
 * `onError` (never an unhandled rejection). A run that fails after a wake-up arrived still gets its
 * next run: the wake-up was for rows the failed run may never have read.
 */
export class OneRunAtATime<T = void> {
  private inFlight: Promise<T> | undefined;
  private wakeRequested = false;
  /** A wake-up asked for its run without the linger (more is due now). */
  private wakeNowRequested = false;
  /** When the last run started (`performance.now()`); the linger counts from here. */
  private lastStart = Number.NEGATIVE_INFINITY;
  private readonly stopController = new AbortController();

  /**
   * @param runOnce one run of the job; reads {@link signal} (also passed in) to cut a stop short
   * @param onError where failures of runs started by {@link wake} go (the job's logger)
   * @param options.lingerMs least time between the starts of two runs that wake-ups ask for; 0
   *   (the default) runs at once. Each run then carries up to `lingerMs` of arrivals, and an item
   *   that arrives during a busy spell waits up to that long
   */
  constructor(
    private readonly runOnce: JobRun<T>,
    private readonly onError: (error: Error) => void,
    private readonly options: { lingerMs?: number } = {},
  ) {}

  /** Aborted once {@link stop} is called. */
  get signal(): AbortSignal {
    return this.stopController.signal;
  }

  /** True once {@link stop} is called: a run checks it between batches to end early. */
  get stopping(): boolean {
    return this.signal.aborted;
  }

  /** True while a run is in flight. */
  get running(): boolean {
    return this.inFlight !== undefined;
  }

  /**
   * Starts a run, or joins the one in flight (and the runs woken after it); resolves with the
   * result of the last. After {@link stop}, rejects without running.
   */
  run(): Promise<T> {
    return this.start(0);
  }

  /**
   * Asks for a run: when none is in flight, now (or once the linger since the last run's start has
   * passed), else exactly one more after it. `now` skips the linger: for a run that found more due
   * than one run takes. Ignored once stopping.
   */
  wake(options: { now?: boolean } = {}): void {
    if (this.stopping) return;
    if (this.inFlight) {
      this.wakeRequested = true;
      if (options.now) this.wakeNowRequested = true;
      return;
    }
    this.start(options.now ? 0 : this.lingerLeftMs()).catch((error: unknown) => {
      // Stopped while lingering: the run was never started, there is nothing to report.
      if (!(error instanceof JobStoppedError)) this.onError(asError(error));
    });
  }

  /** The `ScheduledJob` face: what a schedule calls on each tick. The same as {@link wake}. */
  trigger(): void {
    this.wake();
  }

  /** Resolves when no run is in flight; unlike {@link run}, never starts one, never rejects. */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
  }

  /** Starts no new run, aborts {@link signal}, and resolves once the run in flight has finished. */
  async stop(): Promise<void> {
    this.stopController.abort();
    await this.idle();
  }

  private start(lingerMs: number): Promise<T> {
    if (this.stopping && !this.inFlight) return Promise.reject(new JobStoppedError());
    this.inFlight ??= this.loop(lingerMs).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** What is left of the linger since the last run started; 0 when it has passed or is off. */
  private lingerLeftMs(): number {
    const lingerMs = this.options.lingerMs ?? 0;
    return lingerMs > 0 ? Math.max(0, this.lastStart + lingerMs - performance.now()) : 0;
  }

  private async loop(firstLingerMs: number): Promise<T> {
    let lingerMs = firstLingerMs;
    let last: { result: T } | undefined;
    for (;;) {
      // Inside the run's promise, so idle() and run() callers wait through the linger too.
      if (lingerMs > 0 && !(await this.pause(lingerMs))) {
        if (last) return last.result;
        throw new JobStoppedError();
      }
      this.wakeRequested = false;
      this.wakeNowRequested = false;
      this.lastStart = performance.now();
      try {
        last = { result: await this.runOnce(this.signal) };
        if (!this.wakeRequested || this.stopping) return last.result;
      } catch (error) {
        if (!this.wakeRequested || this.stopping) throw error;
        this.onError(asError(error));
      }
      lingerMs = this.wakeNowRequested ? 0 : this.lingerLeftMs();
    }
  }

  /** Waits `ms`; resolves false at once when the job is stopped meanwhile (or already was). */
  private pause(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.stopping) {
        resolve(false);
        return;
      }
      const stopped = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', stopped);
        resolve(true);
      }, ms);
      this.signal.addEventListener('abort', stopped, { once: true });
    });
  }
}

/** A run asked for by a wake-up, not started because the job stopped while it lingered. */
class JobStoppedError extends Error {
  constructor() {
    super('the job is stopped');
    this.name = 'JobStoppedError';
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
