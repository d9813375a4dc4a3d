export { databaseEnv, type DatabaseConfig } from './database.config.js';
export { databaseUrl } from './database-url.js';
export { createDataSource, type DataSourceFactoryOptions } from './data-source.factory.js';
export { ensureDatabaseExists, dropDatabase } from './database-admin.js';
export { migrateDatabase, revertAllMigrations } from './migration-runner.js';
export { TransactionContext, NoActiveTransactionError } from './transaction-context.js';
export { DatabaseModule } from './database.module.js';
export { DatabaseHealthIndicator } from './database.health.js';
export { runMigrateCommand } from './migrate-command.js';
