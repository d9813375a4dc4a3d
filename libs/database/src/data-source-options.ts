import type { DataSourceFactoryOptions } from './data-source.factory.js';
import type { DatabaseConfig } from './database.config.js';
import { databaseSsl } from './database-ssl.js';

/** What an app adds to its connection options: its tables, its migrations and its name on the server. */
type AppSchema = Pick<DataSourceFactoryOptions, 'entities' | 'migrations' | 'applicationName'>;

/**
 * The options of `createDataSource` that an app's `DATABASE_*` variables set (server, database,
 * pool, timeouts, TLS, prepared statements), in one place: a variable added to `databaseEnv` is
 * wired here once for every app, not in each app's data source. Throws a `ConfigValidationError`
 * naming the variable when the TLS settings contradict each other ({@link databaseSsl}).
 */
export function dataSourceOptions(config: DatabaseConfig, schema: AppSchema): DataSourceFactoryOptions {
  return {
    serverUrl: config.DATABASE_URL,
    database: config.DATABASE_NAME,
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    ssl: databaseSsl(config),
    ...schema,
  };
}
