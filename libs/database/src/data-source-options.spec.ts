import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@libs/config';
import { dataSourceOptions } from './data-source-options.js';
import { databaseEnv } from './database.config.js';

class SomeEntity {}
class SomeMigration {}

describe('dataSourceOptions: the DATABASE_* variables as createDataSource options', () => {
  it('when every variable is set, then each lands on its option, beside the app schema', () => {
    const config = loadConfig(databaseEnv('orders'), {
      DATABASE_URL: 'postgres://app@db.internal:5432',
      DATABASE_NAME: 'orders_eu',
      DATABASE_POOL_SIZE: '7',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '2500',
      DATABASE_LOCK_TIMEOUT_MS: '3500',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '4500',
      DATABASE_SSL_MODE: 'require',
      DATABASE_PREPARED_STATEMENTS: 'false',
    });

    expect(dataSourceOptions(config, { entities: [SomeEntity], migrations: [SomeMigration], applicationName: 'orders' })).toEqual({
      serverUrl: 'postgres://app@db.internal:5432',
      database: 'orders_eu',
      poolSize: 7,
      connectTimeoutMs: 1500,
      statementTimeoutMs: 2500,
      lockTimeoutMs: 3500,
      idleInTransactionTimeoutMs: 4500,
      preparedStatements: false,
      ssl: { rejectUnauthorized: false },
      entities: [SomeEntity],
      migrations: [SomeMigration],
      applicationName: 'orders',
    });
  });

  it('when only the server is given, then the defaults of databaseEnv apply: plaintext, prepared statements on, the service name as database', () => {
    const options = dataSourceOptions(loadConfig(databaseEnv('loyalty'), { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432' }), {
      entities: [],
      migrations: [],
    });

    expect(options).toMatchObject({ database: 'loyalty', poolSize: 10, ssl: false, preparedStatements: true });
  });

  it('when a CA file is set for a mode that does not verify, then it fails naming the variable', () => {
    const config = loadConfig(databaseEnv('orders'), {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432',
      DATABASE_SSL_MODE: 'require',
      DATABASE_SSL_CA_FILE: '/etc/ssl/db-ca.pem',
    });

    expect(() => dataSourceOptions(config, { entities: [], migrations: [] })).toThrow(/DATABASE_SSL_CA_FILE/);
  });
});
