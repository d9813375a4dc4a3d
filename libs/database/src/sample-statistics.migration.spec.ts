import { describe, expect, it } from '@jest/globals';
import type { QueryRunner } from 'typeorm';
import { sampleStatistics } from './sample-statistics.migration.js';

// The SQL is checked against a real Postgres in test/foundation/migrations.int-spec.ts (every column
// of a growing table sampled, reverted and applied again identically); this checks the statements
// built from what pg_attribute answers, and the recorded name that decides whether TypeORM runs it.
describe('sampleStatistics', () => {
  /** A runner that answers each column query with `columns[table]` and records the rest. */
  const recording = (columns: Record<string, string[]>) => {
    const statements: string[] = [];
    const query = async (sql: string, parameters?: unknown[]) => {
      if (sql.includes('FROM pg_attribute')) return (columns[String(parameters?.[0])] ?? []).map((name) => ({ name }));
      statements.push(sql);
      return [];
    };
    return { statements, runner: { query } as unknown as QueryRunner };
  };

  it('when applied, then each table gets one statement for its columns at the default target, none for a table without such columns', async () => {
    const { statements, runner } = recording({ outbox_messages: ['id', 'seq', 'published_at'], 'app.reservations': [] });
    await new (sampleStatistics(['outbox_messages', 'app.reservations']))().up(runner);
    expect(statements).toEqual([
      'ALTER TABLE outbox_messages ALTER COLUMN "id" SET STATISTICS 10, ALTER COLUMN "seq" SET STATISTICS 10, ALTER COLUMN "published_at" SET STATISTICS 10',
    ]);
  });

  it('when reverted, then the sampled columns get the server default back', async () => {
    const { statements, runner } = recording({ accruals: ['id', 'order_id'] });
    await new (sampleStatistics(['accruals']))().down(runner);
    expect(statements).toEqual(['ALTER TABLE accruals ALTER COLUMN "id" SET STATISTICS -1, ALTER COLUMN "order_id" SET STATISTICS -1']);
  });

  it('when a later migration samples a table added later, then it is recorded under its own name and timestamp', () => {
    expect(new (sampleStatistics(['orders']))().name).toBe('SampleStatistics1764460800930');
    expect(new (sampleStatistics(['shipments'], 1764460801000))().name).toBe('SampleStatistics1764460801000');
  });

  it('when a name is not a plain identifier, no table is given or the timestamp is not 13 digits, then it refuses before any SQL', () => {
    expect(() => sampleStatistics([])).toThrow(/needs table names/);
    expect(() => sampleStatistics(['orders; DROP TABLE orders'])).toThrow(/got \["orders; DROP TABLE orders"\]/);
    expect(() => sampleStatistics(['orders'], 17644608009)).toThrow(/13-digit millisecond timestamp; got 17644608009/);
  });
});
