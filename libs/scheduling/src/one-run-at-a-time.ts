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
 *
 * Errors: {@link run} rejects with the run's error; a run started by {@link wake} reports it to
 * `onError` (never an unhandled rejection). A run that fails after a wake-up arrived still gets its
 * next run: the wake-up was for rows the failed run may never have read.
 */
export class OneRunAtATime<T = void> {
  private inFlight: Promise<T> | undefined;
  private wakeRequested = false;
  private readonly stopController = new AbortController();

  /**
   * @param runOnce one run of the job; reads {@link signal} (also passed in) to cut a stop short
   * @param onError where failures of runs started by {@link wake} go (the job's logger)
   */
  constructor(
    private readonly runOnce: JobRun<T>,
    private readonly onError: (error: Error) => void,
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
    if (this.stopping && !this.inFlight) return Promise.reject(new Error('the job is stopped'));
    this.inFlight ??= this.loop().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Asks for a run: now when none is in flight, else exactly one more after it. Ignored once stopping. */
  wake(): void {
    if (this.stopping) return;
    if (this.inFlight) {
      this.wakeRequested = true;
      return;
    }
    this.run().catch((error: unknown) => this.onError(asError(error)));
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

  private async loop(): Promise<T> {
    for (;;) {
      this.wakeRequested = false;
      try {
        const result = await this.runOnce(this.signal);
        if (!this.wakeRequested || this.stopping) return result;
      } catch (error) {
        if (!this.wakeRequested || this.stopping) throw error;
        this.onError(asError(error));
      }
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
