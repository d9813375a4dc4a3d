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

/**
 * The brokers `scripts/kafka-local.sh` starts for this environment: one, or with
 * `KAFKA_LOCAL_NODES=N` every node of the cluster, by the script's port rule (node i listens on
 * `KAFKA_LOCAL_PORT` + 10 * (i - 1), or on the i-th of `KAFKA_LOCAL_PORTS`).
 */
function localKafkaBrokers(source: NodeJS.ProcessEnv = process.env): string {
  const nodes = Number(source.KAFKA_LOCAL_NODES || 1);
  if (!Number.isInteger(nodes) || nodes <= 1) return LocalDefaults.KAFKA_BROKERS;
  const listed = (source.KAFKA_LOCAL_PORTS ?? '').split(',').filter(Boolean);
  const first = Number(source.KAFKA_LOCAL_PORT || 9092);
  return Array.from({ length: nodes }, (_, i) => `127.0.0.1:${listed[i] ?? first + 10 * i}`).join(',');
}

/** `process.env` with the local defaults filled in where unset. */
export function localEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...source,
    DATABASE_URL: source.DATABASE_URL || LocalDefaults.DATABASE_URL,
    KAFKA_BROKERS: source.KAFKA_BROKERS || localKafkaBrokers(source),
    LOYALTY_BASE_URL: source.LOYALTY_BASE_URL || LocalDefaults.LOYALTY_BASE_URL,
  };
}
