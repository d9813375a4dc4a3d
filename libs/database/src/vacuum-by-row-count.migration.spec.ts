import { describe, expect, it } from '@jest/globals';
import type { QueryRunner } from 'typeorm';
import { VACUUM_BY_ROW_COUNT, vacuumByRowCount } from './vacuum-by-row-count.migration.js';

// The SQL is checked against a real Postgres in test/foundation/migrations.int-spec.ts; this checks
// what decides whether TypeORM runs the migration at all: its recorded name.
describe('vacuumByRowCount', () => {
  it('when a later migration tunes a table added later, then it is recorded under its own name and timestamp', () => {
    const first = new (vacuumByRowCount(['outbox_messages']))();
    const later = new (vacuumByRowCount(['shipments'], 1764460801000))();
    expect(first.name).toBe('VacuumByRowCount1764460800900');
    expect(later.name).toBe('VacuumByRowCount1764460801000');
  });

  it('when applied, then every table gets every setting in one statement each', async () => {
    const statements: string[] = [];
    const runner = { query: async (sql: string) => void statements.push(sql) } as unknown as QueryRunner;
    await new (vacuumByRowCount(['orders', 'app.outbox_messages']))().up(runner);
    const assignments = Object.entries(VACUUM_BY_ROW_COUNT)
      .map(([name, value]) => `${name} = ${value}`)
      .join(', ');
    expect(statements).toEqual([`ALTER TABLE orders SET (${assignments})`, `ALTER TABLE app.outbox_messages SET (${assignments})`]);
  });

  it('when a table name is not a plain identifier or the timestamp is not 13 digits, then it refuses before any SQL', () => {
    expect(() => vacuumByRowCount([])).toThrow(/needs table names/);
    expect(() => vacuumByRowCount(['orders; DROP TABLE orders'])).toThrow(/needs table names.*DROP TABLE/);
    expect(() => vacuumByRowCount(['orders'], 17644608009)).toThrow(/13-digit millisecond timestamp; got 17644608009/);
  });
});
