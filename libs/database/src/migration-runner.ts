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
