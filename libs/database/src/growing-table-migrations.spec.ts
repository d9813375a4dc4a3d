import { describe, expect, it } from '@jest/globals';
import { growingTableMigrations } from './growing-table-migrations.js';

describe('growingTableMigrations', () => {
  it('when an app lists its growing tables, then they get autovacuum by row count and analysis from a sample, each under its own recorded name', () => {
    const names = growingTableMigrations(['orders', 'outbox_messages']).map((Migration) => new Migration().name);
    expect(names).toEqual(['VacuumByRowCount1764460800900', 'SampleStatistics1764460800930']);
  });

  it('when no table is named, then it refuses before any SQL', () => {
    expect(() => growingTableMigrations([])).toThrow(/needs table names/);
  });
});
