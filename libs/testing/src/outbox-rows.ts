import { queryTestDatabase } from './row-counts.js';
import { waitFor } from './wait-for.js';

/** What a crash test reads of an outbox row: its id (the message-id on Kafka) and when it was published. */
export interface OutboxRowState {
  id: string;
  /** `null` while the row is pending. */
  published_at: Date | null;
}

/** The outbox rows of one aggregate (for orders: one order id) in `database`, in the order they were written. */
export async function outboxRowsOf(serverUrl: string, database: string, aggregateId: string): Promise<OutboxRowState[]> {
  return queryTestDatabase<OutboxRowState & Record<string, unknown>>(
    serverUrl,
    database,
    'SELECT id, published_at FROM outbox_messages WHERE aggregate_id = $1 ORDER BY seq',
    [aggregateId],
  );
}

/** Options of {@link waitForOutboxDrained}. */
export interface WaitForOutboxDrainedOptions {
  /** Only the rows of this aggregate must be published; default every row of the database. */
  aggregateId?: string;
  /** Default 30 s. */
  timeoutMs?: number;
  /** Pause between queries; default 100 ms. */
  intervalMs?: number;
  /** Names the wait in the timeout error. */
  description?: string;
}

/** Waits until no outbox row of `database` (or of one aggregate) is pending: the relay has marked them all published. */
export async function waitForOutboxDrained(serverUrl: string, database: string, options: WaitForOutboxDrainedOptions = {}): Promise<void> {
  const ofAggregate = options.aggregateId === undefined ? '' : ' AND aggregate_id = $1';
  const params = options.aggregateId === undefined ? [] : [options.aggregateId];
  await waitFor(
    async () => {
      const [{ n }] = await queryTestDatabase<{ n: number }>(
        serverUrl,
        database,
        `SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL${ofAggregate}`,
        params,
      );
      return n === 0;
    },
    {
      timeoutMs: options.timeoutMs ?? 30_000,
      intervalMs: options.intervalMs,
      description: options.description ?? `no pending outbox row${options.aggregateId === undefined ? '' : ` of ${options.aggregateId}`} in ${database}`,
    },
  );
}
