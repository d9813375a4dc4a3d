import { Gauge, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { partitionHealth } from './day-partitions.js';

/**
 * Two gauges of a day-partitioned table, read from the catalogue at scrape time (so a retention job
 * that stopped running shows, whichever replica is scraped): `<prefix>_partitions_ahead_days`, the
 * whole days after today that have a partition (-1 when even today's is missing), and
 * `<prefix>_default_partition_rows`, the rows the default partition caught (counted up to 10,000).
 * The alerts `PartitionsNotCreatedAhead` and `PartitionDefaultHoldsRows` read them.
 */
export function dayPartitionGauges(registry: Registry, dataSource: DataSource, prefix: string, table: string): void {
  new Gauge({
    name: `${prefix}_partitions_ahead_days`,
    help: `Whole days after today that have a partition of ${table} (-1: not even today's)`,
    registers: [registry],
    async collect() {
      this.set((await partitionHealth(dataSource, table)).daysAhead);
    },
  });
  new Gauge({
    name: `${prefix}_default_partition_rows`,
    help: `Rows of ${table} in its default partition (ids outside every day partition), counted up to 10,000`,
    registers: [registry],
    async collect() {
      this.set((await partitionHealth(dataSource, table)).defaultRows);
    },
  });
}
