/** Thrown when a send outlives its {@link PublishDeadline}, or the relay is stopping. */
class PublishDeadlineExceeded extends Error {
  override readonly name = 'OutboxPublishDeadlineExceeded';
}

/** True when `error` is a send abandoned at its deadline (the broker did not answer in time) or at stop. */
export function isPublishDeadlineExceeded(error: unknown): boolean {
  return error instanceof PublishDeadlineExceeded;
}

/**
 * The time one relay batch may spend talking to Kafka, fallbacks included. Why a bound: the relay
 * holds its advisory lock and an open transaction while it publishes, and a broker that stops
 * answering mid-batch (a frozen process, a network partition) would otherwise hold both for
 * kafkajs' request timeout times its retries, for every row of a row-by-row fallback: minutes in
 * which no relay publishes anything.
 */
export class PublishDeadline {
  /**
   * @param at Epoch milliseconds after which every send is abandoned.
   * @param signal Aborted when the relay stops: the in-flight send is abandoned at once, so
   *   shutdown never waits out the deadline.
   */
  constructor(
    readonly at: number,
    private readonly signal?: AbortSignal,
  ) {}

  /** No deadline: for callers (tests, tools) that wait for Kafka however long it takes. */
  static none(): PublishDeadline {
    return new PublishDeadline(Number.POSITIVE_INFINITY);
  }

  get expired(): boolean {
    return Date.now() >= this.at || this.signal?.aborted === true;
  }

  /**
   * Settles like `work`, unless the deadline passes or the signal aborts first: then rejects with
   * {@link PublishDeadlineExceeded}. `work` keeps running; the caller must retire whatever it used.
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.expired) {
      work.catch(() => undefined);
      return Promise.reject(new PublishDeadlineExceeded(this.reason()));
    }
    return new Promise<T>((resolve, reject) => {
      const remaining = this.at - Date.now();
      const timer = Number.isFinite(remaining)
        ? setTimeout(() => finish(() => reject(new PublishDeadlineExceeded(this.reason()))), remaining)
        : undefined;
      const onAbort = () => finish(() => reject(new PublishDeadlineExceeded(this.reason())));
      this.signal?.addEventListener('abort', onAbort, { once: true });
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        settle();
      };
      work.then(
        (value) => finish(() => resolve(value)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
  }

  private reason(): string {
    return this.signal?.aborted ? 'relay stopping: send abandoned' : 'publish deadline exceeded: send abandoned';
  }
}
