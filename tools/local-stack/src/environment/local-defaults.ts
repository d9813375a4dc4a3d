/**
 * Where local tooling (npm start, npm test, db:migrate) looks for infrastructure when the caller's
 * environment says nothing. The apps themselves have no such defaults: a deployed service must be
 * told where its database and broker are.
 */
export const LocalDefaults = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432',
  KAFKA_BROKERS: '127.0.0.1:9092',
  /** Where inventory finds loyalty when both run on this machine (loyalty's default port). */
  LOYALTY_BASE_URL: 'http://127.0.0.1:3002',
} as const;

/** `process.env` with the local defaults filled in where unset. */
export function localEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...source,
    DATABASE_URL: source.DATABASE_URL || LocalDefaults.DATABASE_URL,
    KAFKA_BROKERS: source.KAFKA_BROKERS || LocalDefaults.KAFKA_BROKERS,
    LOYALTY_BASE_URL: source.LOYALTY_BASE_URL || LocalDefaults.LOYALTY_BASE_URL,
  };
}
