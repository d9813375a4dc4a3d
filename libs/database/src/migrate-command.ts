import type { DataSource } from 'typeorm';
import { bootstrapOrExit, loadConfig } from '@app/config';
import { databaseEnv, type DatabaseConfig } from './database.config.js';
import { migrateDatabase } from './migration-runner.js';

/** The body of each app's `migrate` entry point: create the database if needed, apply migrations. */
export function runMigrateCommand(service: string, createDataSource: (config: DatabaseConfig) => DataSource): void {
  bootstrapOrExit(`${service}:migrate`, async () => {
    const config = loadConfig(databaseEnv(service));
    const applied = await migrateDatabase(createDataSource(config), config.DATABASE_URL, config.DATABASE_NAME);
    console.log(`[${service}:migrate] ${config.DATABASE_NAME}: ${applied.length ? applied.join(', ') : 'up to date'}`);
  });
}
