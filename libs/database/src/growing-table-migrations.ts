import type { MigrationInterface } from 'typeorm';
import { sampleStatistics } from './sample-statistics.migration.js';
import { vacuumByRowCount } from './vacuum-by-row-count.migration.js';

/**
 * What every table that grows with traffic gets in its app's migrations: autovacuum started by a
 * row count ({@link vacuumByRowCount}) and `ANALYZE` from a sample ({@link sampleStatistics}), each
 * at its own first timestamp (TypeORM runs migrations in timestamp order, wherever they are listed).
 * A table added later gets the two factories with timestamps of their own.
 */
export function growingTableMigrations(tables: readonly string[]): (new () => MigrationInterface)[] {
  return [vacuumByRowCount(tables), sampleStatistics(tables)];
}
