import type { DataSource } from 'typeorm';
import type { BacklogProbe } from './backlog-reading.js';

/**
 * `db_pool_waiting`: requests of this process waiting for a database connection, read from the
 * pg pool in memory (no query). A waiting queue means the database, not this process, is the bound.
 */
export function databasePoolProbe(dataSource: DataSource, bound: number): BacklogProbe {
  return {
    read: async () => {
      const pool = (dataSource.driver as unknown as { master?: { waitingCount?: number } }).master;
      return [{ signal: 'db_pool_waiting', value: pool?.waitingCount ?? 0, bound }];
    },
  };
}
