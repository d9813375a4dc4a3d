import { env, type EnvConfig, type LaptopSetting } from '@libs/config';

/**
 * Environment variables every app with a database reads. Each service owns one database on the
 * server at `DATABASE_URL`; `DATABASE_NAME` defaults to the service's name.
 */
export function databaseEnv(defaultName: string) {
  return {
    DATABASE_URL: env.url({
      description: 'PostgreSQL server URL without the database name, e.g. postgres://postgres@127.0.0.1:5432',
      protocols: ['postgres', 'postgresql'],
    }),
    DATABASE_NAME: env.string({
      description: "This service's own database on that server (created by `npm run db:migrate`)",
      default: defaultName,
      pattern: /^[a-z_][a-z0-9_]{0,62}$/,
    }),
    DATABASE_POOL_SIZE: env.integer({
      description: 'Maximum connections in the pool; each relay or listener holds one more of its own',
      default: 10,
      min: 1,
      max: 200,
    }),
    DATABASE_CONNECT_TIMEOUT_MS: env.integer({
      description:
        'Longest wait for a pool connection: opening a new one (a server that accepts but never answers) or waiting for a free one when the pool is full; then the query fails instead of hanging its request. Too low fails requests under a short burst',
      default: 10_000,
      min: 100,
      max: 600_000,
    }),
    DATABASE_STATEMENT_TIMEOUT_MS: env.integer({
      description:
        'Postgres statement_timeout of every pool connection: a statement running longer fails (0 = none). Bounds a runaway query; migrations of large tables may need more',
      default: 30_000,
      min: 0,
      max: 86_400_000,
    }),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: env.integer({
      description:
        "Postgres idle_in_transaction_session_timeout of every pool connection: the server ends a session whose transaction waits this long for its client (0 = never), releasing its locks, the outbox relay's advisory lock included, when the client is partitioned away or frozen. Keep it above OUTBOX_PUBLISH_TIMEOUT_MS, the longest the relay's transaction waits on Kafka",
      default: 60_000,
      min: 0,
      max: 86_400_000,
    }),
    DATABASE_SSL_MODE: env.string({
      description:
        "TLS to Postgres, as libpq's sslmode: disable, require (encrypted, certificate unchecked), verify-ca (certificate must chain to the CA) or verify-full (and match the host name; use this in production)",
      default: 'disable',
      pattern: /^(disable|require|verify-ca|verify-full)$/,
    }),
    DATABASE_SSL_DISABLED_ALLOWED: env.boolean({
      description:
        'Allow DATABASE_SSL_MODE=disable under NODE_ENV=production, on purpose (logged at every start): the password and every row cross the network in clear',
      default: false,
    }),
    DATABASE_SSL_CA_FILE: env.string({
      description: "PEM file of the CA that signed the server's certificate, for verify-ca and verify-full; empty: the system's CAs",
      default: '',
    }),
    DATABASE_PREPARED_STATEMENTS: env.boolean({
      description:
        'Send parameterised statements as named prepared statements: Postgres parses each text once per connection, about half its CPU per statement on the hot paths. Set false behind a pooler in transaction mode that cannot follow them (PgBouncer before 1.21)',
      default: true,
    }),
    DATABASE_LOCK_TIMEOUT_MS: env.integer({
      description:
        'Postgres lock_timeout of every pool connection: waiting longer for a row or table lock fails the statement (0 = none); the caller retries, instead of queueing behind a stuck transaction',
      default: 10_000,
      min: 0,
      max: 86_400_000,
    }),
  };
}

type DatabaseEnv = EnvConfig<ReturnType<typeof databaseEnv>>;
type DatabaseTimeouts =
  | 'DATABASE_CONNECT_TIMEOUT_MS'
  | 'DATABASE_STATEMENT_TIMEOUT_MS'
  | 'DATABASE_LOCK_TIMEOUT_MS'
  | 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'
  | 'DATABASE_SSL_MODE'
  | 'DATABASE_SSL_CA_FILE'
  | 'DATABASE_SSL_DISABLED_ALLOWED'
  | 'DATABASE_PREPARED_STATEMENTS';

/** What {@link databaseEnv} yields; the timeouts default to none, TLS to off and prepared statements to on here, the apps always pass theirs. */
export type DatabaseConfig = Omit<DatabaseEnv, DatabaseTimeouts> & Partial<Pick<DatabaseEnv, DatabaseTimeouts>>;

/** What {@link databaseEnv} allows only on a laptop; see `refuseLaptopSettings` of `@libs/config`. */
export function databaseLaptopSettings(config: DatabaseConfig): LaptopSetting[] {
  return [
    {
      present: (config.DATABASE_SSL_MODE ?? 'disable') === 'disable',
      risk: 'DATABASE_SSL_MODE=disable: the password and every row cross the network in clear',
      optOut: 'DATABASE_SSL_DISABLED_ALLOWED',
      allowed: config.DATABASE_SSL_DISABLED_ALLOWED ?? false,
    },
  ];
}
