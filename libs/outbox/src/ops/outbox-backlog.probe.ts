import type { DataSource } from 'typeorm';

/** One backlog figure and its bound; the shape `@libs/http`'s load shedding reads (`BacklogReading`). */
interface OutboxBacklogReading {
  signal: 'outbox_pending' | 'outbox_oldest_pending_age_ms';
  value: number;
  bound: number;
}

/**
 * The outbox's backlog for load shedding, in one query on the pending-rows index: the rows not yet
 * published, counted up to `pendingMax + 1` only (enough to know the bound is passed, at a cost the
 * bound caps, whatever the backlog), and the age of the oldest. A relay that is stopped, slow, or
 * refused by Kafka shows here first.
 */
export function outboxBacklogProbe(
  dataSource: DataSource,
  bounds: { pendingMax: number; oldestAgeMaxMs: number },
): { read(): Promise<OutboxBacklogReading[]> } {
  const sql = `
    SELECT (SELECT count(*)::int FROM (SELECT 1 FROM outbox_messages WHERE published_at IS NULL LIMIT ${Math.floor(bounds.pendingMax) + 1}) AS bounded) AS pending,
           COALESCE(EXTRACT(EPOCH FROM now() - (SELECT created_at FROM outbox_messages WHERE published_at IS NULL ORDER BY seq LIMIT 1)) * 1000, 0)::float8 AS age_ms`;
  return {
    read: async () => {
      const [row] = await dataSource.query<{ pending: number; age_ms: number }[]>(sql);
      return [
        { signal: 'outbox_pending', value: row.pending, bound: bounds.pendingMax },
        { signal: 'outbox_oldest_pending_age_ms', value: row.age_ms, bound: bounds.oldestAgeMaxMs },
      ];
    },
  };
}
