interface Waiting {
  id: string;
  resolve: (marked: boolean) => void;
  reject: (error: Error) => void;
}

/**
 * Marks ids in as few statements as the load allows: the first mark goes out at once, and the ids
 * that arrive while it runs go out together in the next one. At a trickle that is one statement per
 * id, as before; in a backlog drain, where eight calls finish within a round trip of each other, it
 * is one statement for all of them (one UPDATE per accepted command was a Postgres round
 * trip per loyalty call). No timer, so no added latency: a mark waits at most for the statement in
 * flight.
 */
export class CoalescedMarks {
  private waiting: Waiting[] = [];
  private flushing = false;

  /** `markAll` marks the ids it is given and returns those it changed (a conditional update may skip some). */
  constructor(private readonly markAll: (ids: string[]) => Promise<ReadonlySet<string>>) {}

  /**
   * Marks ids known together (one accepted command, or the accepted commands of one batch answer)
   * in one statement, or in the next one when a statement is running. Resolves with whether each
   * was marked, in order (false when the statement skipped it); rejects when the statement failed.
   */
  markEach(ids: readonly string[]): Promise<boolean[]> {
    const marks = ids.map(
      (id) =>
        new Promise<boolean>((resolve, reject) => {
          this.waiting.push({ id, resolve, reject });
        }),
    );
    if (!this.flushing) void this.flush();
    return Promise.all(marks);
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const marked = await this.markAll(batch.map((one) => one.id));
        for (const one of batch) one.resolve(marked.has(one.id));
      } catch (error) {
        for (const one of batch) one.reject(error as Error);
      }
    }
    this.flushing = false;
  }
}
