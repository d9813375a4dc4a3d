import type { SpeedUpLayer } from '@libs/config';

/**
 * Speed-up layer: a linger between fetches of a busy consumer, `INBOX_LINGER_MS`.
 *
 * What it changes: kafkajs fetches again only once every batch of the last fetch was handled. A
 * batch handled sooner than the linger returns only when the linger has passed since it started,
 * so the next fetch carries what arrived meanwhile in one inbox transaction and one offset commit,
 * instead of a fetch, a transaction and a commit per record at a moderate rate. The wait comes
 * after the handling: a record after a quiet spell is handled at once, and a batch that took
 * longer than the linger is followed by a fetch at once.
 * What it costs: up to the linger of latency per record while the consumer is busy.
 * Why: fewer Kafka requests and Postgres transactions per order, see
 * docs/decisions/0204-fetch-linger.md; why 40 ms: docs/decisions/0001-lingers-of-40-ms.md.
 * Off: `INBOX_FETCH_LINGER_ENABLED=false` (fetch again as soon as a batch is handled).
 */
export const fetchLinger: SpeedUpLayer = {
  name: 'fetch-linger',
  pattern: 'inbox',
  switch: 'INBOX_FETCH_LINGER_ENABLED',
  changes:
    'A batch handled sooner than INBOX_LINGER_MS hands control back to kafkajs only once the linger passed, so the next fetch carries more.',
  costs: 'Up to INBOX_LINGER_MS of latency per record while the consumer is busy.',
  decision: 'docs/decisions/0204-fetch-linger.md',
};

/** The layer itself. */
export class FetchLinger {
  constructor(private readonly lingerMs: number) {}

  /** Waits out what is left of the linger since `startedAt` (a `performance.now()`), unless the consumer stops meanwhile. */
  async rest(startedAt: number, isRunning: () => boolean): Promise<void> {
    const left = startedAt + this.lingerMs - performance.now();
    if (left > 0 && isRunning()) await new Promise((resolve) => setTimeout(resolve, left));
  }
}
