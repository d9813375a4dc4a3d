import type { BacklogReading } from './backlog-reading.js';

/**
 * What the log says about shed requests: one warn line per interval while the door refuses, not
 * one line per refusal. Past capacity the door refuses thousands of requests a second; a line for
 * each would make the log grow fastest exactly when the process has no CPU to spare
 * (docs/decisions/0012-refusals-logged-together.md). The first refusal after
 * a quiet interval is logged at once, so an operator reading the log sees when shedding began; the
 * refusals after it are counted and logged together when the interval has passed, naming the last
 * figure past its bound. `http_requests_shed_total{signal}` still counts every one.
 */
export class ShedLog {
  private unlogged = 0;
  private lastOver: BacklogReading | undefined;
  private lastLineAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly intervalMs: number,
  ) {}

  /** One request was refused because `over` was past its bound. */
  refused(over: BacklogReading): void {
    this.unlogged += 1;
    this.lastOver = over;
    if (this.timer) return;
    const wait = this.lastLineAt + this.intervalMs - performance.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    // unref: a pending count never holds the process open; stop() writes it on the way out.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
    this.timer.unref();
  }

  /** Writes what is counted and not yet logged: at shutdown, so the last refusals are not left out. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  }

  private flush(): void {
    const over = this.lastOver;
    if (this.unlogged === 0 || !over) return;
    const count = this.unlogged;
    this.unlogged = 0;
    this.lastLineAt = performance.now();
    this.write(
      `Shed ${count} request${count === 1 ? '' : 's'} with 503 SERVER.OVERLOADED: ${over.signal} is ${Math.round(over.value)}, ` +
        `past its bound of ${over.bound} (refusals are logged together, one line per ${this.intervalMs} ms at most)`,
    );
  }
}
