import { describe, expect, it } from '@jest/globals';
import type { QueryRunner } from 'typeorm';
import { skipColumnStatistics } from './skip-column-statistics.migration.js';

// The SQL is checked against a real Postgres in test/foundation/migrations.int-spec.ts; this checks
// the statements and what decides whether TypeORM runs the migration at all: its recorded name.
describe('skipColumnStatistics', () => {
  const recording = () => {
    const statements: string[] = [];
    return { statements, runner: { query: async (sql: string) => void statements.push(sql) } as unknown as QueryRunner };
  };

  it('when applied, then each table gets one statement for all its columns, and reverting gives them back the default', async () => {
    const { statements, runner } = recording();
    const migration = new (skipColumnStatistics({ outbox_messages: ['payload', 'headers'], 'app.reservations': ['items'] }))();
    await migration.up(runner);
    await migration.down(runner);
    expect(statements).toEqual([
      'ALTER TABLE outbox_messages ALTER COLUMN payload SET STATISTICS 0, ALTER COLUMN headers SET STATISTICS 0',
      'ALTER TABLE app.reservations ALTER COLUMN items SET STATISTICS 0',
      'ALTER TABLE outbox_messages ALTER COLUMN payload SET STATISTICS -1, ALTER COLUMN headers SET STATISTICS -1',
      'ALTER TABLE app.reservations ALTER COLUMN items SET STATISTICS -1',
    ]);
  });

  it('when a later migration skips a column added later, then it is recorded under its own name and timestamp', () => {
    expect(new (skipColumnStatistics({ orders: ['notes'] }))().name).toBe('SkipColumnStatistics1764460800910');
    expect(new (skipColumnStatistics({ shipments: ['label'] }, 1764460801000))().name).toBe('SkipColumnStatistics1764460801000');
  });

  it('when a name is not a plain identifier, no column is given or the timestamp is not 13 digits, then it refuses before any SQL', () => {
    expect(() => skipColumnStatistics({})).toThrow(/needs columns by table/);
    expect(() => skipColumnStatistics({ orders: [] })).toThrow(/needs columns by table/);
    expect(() => skipColumnStatistics({ orders: ['notes; DROP TABLE orders'] })).toThrow(/got \["orders\.notes; DROP TABLE orders"\]/);
    expect(() => skipColumnStatistics({ orders: ['a.b'] })).toThrow(/needs columns by table/);
    expect(() => skipColumnStatistics({ orders: ['notes'] }, 17644608009)).toThrow(/13-digit millisecond timestamp; got 17644608009/);
  });
});
