import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A table a service's migrations create, and the migrations that create and later change it. */
export interface OwnedTable {
  readonly name: string;
  readonly createdBy: string;
  readonly changedBy: readonly string[];
}

type MigrationClass = new () => MigrationInterface;

/**
 * The SQL a migration's `up` sends, recorded instead of run: every migration here speaks through
 * `query()`. A read (a migration checking the data before it changes it) gets one row whose every
 * column is 0, an empty table's answer.
 */
async function statementsOf(migration: MigrationInterface): Promise<string[]> {
  const statements: string[] = [];
  const recorder = {
    query: async (sql: string) => {
      statements.push(sql);
      return /^\s*SELECT\b/i.test(sql) ? [new Proxy({}, { get: () => 0 })] : [];
    },
  };
  await migration.up(recorder as unknown as QueryRunner);
  return statements;
}

const identifier = '"?([a-z_][a-z0-9_]*)"?';
// A partition (`PARTITION OF`) or a table built to become one (`(LIKE`) is part of its parent, not a table of its own.
const creates = new RegExp(`CREATE TABLE(?: IF NOT EXISTS)? ${identifier}(?![a-z0-9_])(?!\\s+(?:PARTITION OF|\\(LIKE))`, 'gi');
const changes = new RegExp(
  `(?:ALTER TABLE(?: IF EXISTS)?(?: ONLY)? ${identifier})|(?:\\bON ${identifier}\\s*(?:USING\\s+\\w+\\s*)?\\()`,
  'gi',
);

/** The timestamp TypeORM orders a migration by: the last 13 digits of its name. */
const timestampOf = (name: string) => Number(/(\d{13})$/.exec(name)?.[1] ?? Number.NaN);

/**
 * The tables `migrations` create, in the order TypeORM runs them (by timestamp, wherever they are
 * listed), each with the migrations that change it afterwards (an `ALTER TABLE` or an index on it).
 * Read from the SQL the migrations send, so the service pages list what a database migrated by them holds.
 */
export async function tablesOf(migrations: readonly MigrationClass[]): Promise<OwnedTable[]> {
  const tables = new Map<string, { createdBy: string; changedBy: string[] }>();
  const inRunOrder = migrations
    .map((Migration) => {
      const migration = new Migration();
      return { migration, name: migration.name ?? Migration.name };
    })
    .sort((a, b) => timestampOf(a.name) - timestampOf(b.name));
  for (const { migration, name } of inRunOrder) {
    const sql = (await statementsOf(migration)).join('\n');
    const created = new Set<string>();
    for (const [, table] of sql.matchAll(creates)) {
      // A table created again under its own name (rebuilt, e.g. partitioned) is changed, not new.
      if (tables.has(table)) continue;
      tables.set(table, { createdBy: name, changedBy: [] });
      created.add(table);
    }
    for (const [, altered, indexed] of sql.matchAll(changes)) {
      const table = tables.get(altered ?? indexed);
      if (table && !created.has(altered ?? indexed) && !table.changedBy.includes(name)) table.changedBy.push(name);
    }
  }
  return [...tables].map(([name, table]) => ({ name, ...table }));
}
