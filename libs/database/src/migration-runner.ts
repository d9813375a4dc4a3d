import type { DataSource } from 'typeorm';
import { ensureDatabaseExists } from './database-admin.js';
import type { DatabaseSsl } from './database-ssl.js';

/**
 * Creates the service's database when missing and applies its pending migrations. Used by the
 * `migrate` entry point of each app (`npm run db:migrate`, docker compose) and by tests.
 */
export async function migrateDatabase(dataSource: DataSource, serverUrl: string, database: string): Promise<string[]> {
  await ensureDatabaseExists(serverUrl, database, (dataSource.options as { ssl?: DatabaseSsl }).ssl ?? false);
  const ownsConnection = !dataSource.isInitialized;
  if (ownsConnection) await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    if (ownsConnection) await dataSource.destroy();
  }
}

/** Reverts every applied migration, newest first. For tests and local resets only. */
export async function revertAllMigrations(dataSource: DataSource): Promise<number> {
  let reverted = 0;
  while (await hasAppliedMigrations(dataSource)) {
    await dataSource.undoLastMigration({ transaction: 'each' });
    reverted += 1;
  }
  return reverted;
}

async function hasAppliedMigrations(dataSource: DataSource): Promise<boolean> {
  const table = await dataSource.query(`SELECT to_regclass('typeorm_migrations') AS name`);
  if (!table[0]?.name) return false;
  const rows = await dataSource.query('SELECT 1 FROM typeorm_migrations LIMIT 1');
  return rows.length > 0;
}

/** Options of {@link waitUntilMigrated}. */
export interface WaitUntilMigratedOptions {
  /** Give up (reject) after this long; default 10 minutes, longer than a migration Job normally runs. */
  timeoutMs?: number;
  /** Pause between checks; default 2 s. Lower notices the Job's end sooner, at one small query per check. */
  intervalMs?: number;
  /** Told once per check that finds pending migrations (or no database yet); default silent. */
  onPending?: (reason: string) => void;
}

/**
 * Resolves once the database exists and none of `dataSource`'s migrations is pending; rejects after
 * `timeoutMs`. Applies nothing: this is what a replica's init container runs (`migrate.js --wait`,
 * deploy/k8s) so that it starts only after the migration Job has brought the schema to the one its
 * image expects, while exactly one process (the Job) migrates. Migrating from every replica
 * instead would have them race on the same DDL.
 */
export async function waitUntilMigrated(dataSource: DataSource, options: WaitUntilMigratedOptions = {}): Promise<void> {
  const { timeoutMs = 600_000, intervalMs = 2000, onPending = () => undefined } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let reason: string;
    try {
      if (!dataSource.isInitialized) await dataSource.initialize();
      if (!(await dataSource.showMigrations())) return;
      reason = 'migrations pending';
    } catch (error) {
      // No database yet (the Job creates it), or Postgres not reachable yet: both end by waiting.
      reason = (error as Error).message;
    }
    if (Date.now() + intervalMs > deadline) {
      if (dataSource.isInitialized) await dataSource.destroy();
      throw new Error(`the database is not migrated after ${timeoutMs} ms (${reason}); is the migration Job running?`);
    }
    onPending(reason);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
