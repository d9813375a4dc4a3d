import type { TlsOptions } from 'node:tls';
import pg from 'pg';
import { DataSource, type MixedList, type EntitySchema } from 'typeorm';
import { databaseUrl } from './database-url.js';
import type { DatabaseSsl } from './database-ssl.js';
import { CountedClient } from './postgres-traffic.counter.js';
import { PreparingClient } from './preparing-client.js';

export interface DataSourceFactoryOptions {
  serverUrl: string;
  database: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own option type: entity and migration classes as `Function`
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own option type: entity and migration classes as `Function`
  migrations: MixedList<Function | string>;
  poolSize?: number;
  /** Shows in `pg_stat_activity`; helps tell services and tests apart. */
  applicationName?: string;
  /**
   * Longest wait for a pool connection, in ms: opening a new one, or waiting for a free one when
   * all `poolSize` are in use; then the query fails with "timeout exceeded when trying to connect".
   * Default none (0): a server that accepts the TCP connection and never answers (a half-dead
   * proxy, a full backlog) hangs every request that needs the database, for ever.
   */
  connectTimeoutMs?: number;
  /**
   * Postgres `statement_timeout` for every pool connection, in ms; default none (0). Without one, a
   * runaway statement holds its connection, and any lock it took, for ever.
   */
  statementTimeoutMs?: number;
  /**
   * Postgres `lock_timeout` for every pool connection, in ms; default none (0). Without one, a
   * statement queues behind a stuck transaction's lock for as long as that transaction lives.
   */
  lockTimeoutMs?: number;
  /**
   * Postgres `idle_in_transaction_session_timeout` for every pool connection, in ms; default none
   * (0). Without one, a transaction whose client vanished without a FIN (a network partition, a
   * frozen host) holds its locks until TCP gives up on the server's side: hours with the kernel's
   * default keepalive, and never behind a proxy that is still alive.
   */
  idleInTransactionTimeoutMs?: number;
  /** pg's `ssl` of every connection, from `databaseSsl(config)`; default false (plaintext). */
  ssl?: DatabaseSsl;
  /**
   * Parameterised statements as named prepared statements ({@link PreparingClient}); default true.
   * Off for a pooler in transaction mode that cannot follow them.
   */
  preparedStatements?: boolean;
}

/** `read committed`, its space escaped as the startup packet's `options` want it. */
const READ_COMMITTED = 'read\\ committed';

/**
 * Builds a Postgres DataSource the same way for apps, migration runs and tests.
 *
 * - `driver: pg` is passed explicitly: TypeORM's own `require('pg')` fails under Jest's ESM mode.
 * - `synchronize` is off for good: the schema comes from migrations, reviewed like code.
 */
export function createDataSource(options: DataSourceFactoryOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    driver: pg,
    url: databaseUrl(options.serverUrl, options.database),
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    poolSize: options.poolSize ?? 10,
    applicationName: options.applicationName,
    // TypeORM passes it to pg's pool as `connectionTimeoutMillis`, which bounds both waits.
    connectTimeoutMS: options.connectTimeoutMs ?? 0,
    // TypeORM types it as server-side TlsOptions; pg hands it to tls.connect, which takes ConnectionOptions.
    ssl: (options.ssl ?? false) as boolean | TlsOptions,
    logging: ['error', 'warn'],
    // Passed by pg to each new connection's startup packet, so they hold from its first statement.
    // The isolation level is pinned here, not left to the server's default_transaction_isolation:
    // TransactionContext.run() relies on it to open a READ COMMITTED transaction in one statement.
    extra: {
      statement_timeout: options.statementTimeoutMs ?? 0,
      lock_timeout: options.lockTimeoutMs ?? 0,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 0,
      options: `-c default_transaction_isolation=${READ_COMMITTED}`,
      // pg-pool builds its connections with this class; both count their round trips and statements.
      Client: options.preparedStatements === false ? CountedClient : PreparingClient,
    },
  });
}
