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
 * `KAFKA_LOCAL_PORT` + 10 * (i - 1), or on the i-th of `KAFKA_LOCAL_PORTS`). Derived from the same
 * variables the script reads, so moving the local broker moves what the tooling connects to: a
 * fixed default would, on a shared machine, silently reach somebody else's broker on 9092.
 */
function localKafkaBrokers(source: NodeJS.ProcessEnv = process.env): string {
  const parsed = Number(source.KAFKA_LOCAL_NODES || 1);
  const nodes = Number.isInteger(parsed) && parsed > 1 ? parsed : 1;
  const listed = (source.KAFKA_LOCAL_PORTS ?? '').split(',').filter(Boolean);
  if (nodes === 1 && !listed.length && !source.KAFKA_LOCAL_PORT) return LocalDefaults.KAFKA_BROKERS;
  const first = Number(source.KAFKA_LOCAL_PORT || 9092);
  return Array.from({ length: nodes }, (_, i) => `127.0.0.1:${listed[i] ?? first + 10 * i}`).join(',');
}

/**
 * Where inventory finds loyalty: on this machine, at the port loyalty is told to listen on
 * (`LOYALTY_PORT`), so moving one moves the other; otherwise loyalty's default port.
 */
function localLoyaltyBaseUrl(source: NodeJS.ProcessEnv): string {
  return source.LOYALTY_PORT ? `http://127.0.0.1:${source.LOYALTY_PORT}` : LocalDefaults.LOYALTY_BASE_URL;
}

/**
 * `process.env` with the local defaults filled in where unset. Paired variables follow each other:
 * `LOYALTY_BASE_URL` from `LOYALTY_PORT`, `KAFKA_BROKERS` from `KAFKA_LOCAL_PORT(S)` and
 * `KAFKA_LOCAL_NODES`; a variable the caller sets is never overridden.
 */
export function localEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...source,
    DATABASE_URL: source.DATABASE_URL || LocalDefaults.DATABASE_URL,
    KAFKA_BROKERS: source.KAFKA_BROKERS || localKafkaBrokers(source),
    LOYALTY_BASE_URL: source.LOYALTY_BASE_URL || localLoyaltyBaseUrl(source),
  };
}
