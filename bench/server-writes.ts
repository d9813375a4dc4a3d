// What the Postgres server wrote between two soak samples, per order finished: WAL bytes, the full
// page images in them, and the buffers backends had to write themselves. A b-tree keyed by random
// values dirties a page anywhere in the index with each insert, so the first write to each page
// after a checkpoint logs the whole 8 kB page: as the index grows, more of its pages are touched
// between two checkpoints, and these figures grow with the table while the work per order does not.
import pg from 'pg';

/** Cluster-wide counters (pg_stat_wal, pg_stat_bgwriter) at one moment. */
export interface ServerCounters {
  walBytes: number;
  walFullPageImages: number;
  checkpoints: number;
  backendBufferWrites: number;
}

/** The difference of two {@link ServerCounters} readings, the WAL figures per order finished between them. */
export interface ServerWrites {
  walBytesPerOrder: number;
  walFullPageImagesPerOrder: number;
  checkpoints: number;
  backendBufferWrites: number;
}

const COUNTERS = `SELECT w.wal_bytes::text AS wal_bytes, w.wal_fpi::text AS wal_fpi,
    (b.checkpoints_timed + b.checkpoints_req)::text AS checkpoints, b.buffers_backend::text AS buffers_backend
  FROM pg_stat_wal w, pg_stat_bgwriter b`;

/** Reads the counters over `client` (any database of the server: both views are cluster-wide). */
export async function readServerCounters(client: pg.Client): Promise<ServerCounters> {
  const { rows } = await client.query<{ wal_bytes: string; wal_fpi: string; checkpoints: string; buffers_backend: string }>(COUNTERS);
  const [row] = rows;
  return {
    walBytes: Number(row.wal_bytes),
    walFullPageImages: Number(row.wal_fpi),
    checkpoints: Number(row.checkpoints),
    backendBufferWrites: Number(row.buffers_backend),
  };
}

/** What was written between `before` and `after`; the per-order figures are NaN when no order finished. */
export function serverWrites(before: ServerCounters, after: ServerCounters, orders: number): ServerWrites {
  const perOrder = (value: number) => (orders > 0 ? value / orders : Number.NaN);
  return {
    walBytesPerOrder: perOrder(after.walBytes - before.walBytes),
    walFullPageImagesPerOrder: perOrder(after.walFullPageImages - before.walFullPageImages),
    checkpoints: after.checkpoints - before.checkpoints,
    backendBufferWrites: after.backendBufferWrites - before.backendBufferWrites,
  };
}
