import { localEnvironment } from './local-defaults.js';

/** Where the shared Postgres server and Kafka cluster of a test run are. */
export interface TestInfrastructure {
  /** Postgres server URL without a database (`DATABASE_URL`); tests create their own databases on it. */
  serverUrl: string;
  /** Kafka bootstrap brokers (`KAFKA_BROKERS`, comma-separated in the environment). */
  brokers: string[];
}

/**
 * The Postgres server and Kafka brokers the tests use: `DATABASE_URL` and `KAFKA_BROKERS` from
 * `source` (default `process.env`, which the global setup fills in), else {@link LocalDefaults}.
 * Reads variables only; it connects to nothing.
 */
export function testInfrastructure(source: NodeJS.ProcessEnv = process.env): TestInfrastructure {
  const env = localEnvironment(source);
  return { serverUrl: env.DATABASE_URL!, brokers: env.KAFKA_BROKERS!.split(',') };
}
