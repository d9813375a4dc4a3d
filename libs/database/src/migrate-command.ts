import type { DataSource } from 'typeorm';
import { bootstrapOrExit, loadConfig } from '@libs/config';
import { databaseEnv, type DatabaseConfig } from './database.config.js';
import { migrateDatabase, waitUntilMigrated } from './migration-runner.js';

/**
 * The body of each app's `migrate` entry point: create the database if needed, apply migrations.
 * With `--wait`: apply nothing, and exit 0 once no migration is pending (see {@link waitUntilMigrated}),
 * or 1 after ten minutes; what a replica runs before it starts (deploy/k8s).
 */
export function runMigrateCommand(service: string, createDataSource: (config: DatabaseConfig) => DataSource): void {
  bootstrapOrExit(`${service}:migrate`, async () => {
    const config = loadConfig(databaseEnv(service));
    if (process.argv.includes('--wait')) {
      const dataSource = createDataSource(config);
      let told = false;
      await waitUntilMigrated(dataSource, {
        onPending: (reason) => {
          if (!told) console.log(`[${service}:migrate] ${config.DATABASE_NAME}: waiting for the migration Job (${reason})`);
          told = true;
        },
      });
      await dataSource.destroy();
      console.log(`[${service}:migrate] ${config.DATABASE_NAME}: up to date`);
      return;
    }
    const applied = await migrateDatabase(createDataSource(config), config.DATABASE_URL, config.DATABASE_NAME);
    console.log(`[${service}:migrate] ${config.DATABASE_NAME}: ${applied.length ? applied.join(', ') : 'up to date'}`);
  });
}
