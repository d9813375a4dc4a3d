import type { RetryOptions } from 'kafkajs';
import { env } from '@libs/config';

/**
 * How fast the Kafka clients notice a broker that died or went silent, and move to its successor.
 *
 * A SIGKILLed broker's connections reset at once, so the clients learn of it in milliseconds; what
 * they cannot shorten is the controller's fencing of the dead node (`broker.session.timeout.ms`,
 * 9 s in Kafka's defaults) before a new leader or coordinator is elected. The wait after that is the
 * clients' own: kafkajs' backoff doubles from 200 ms up to `maxRetryTime` (30 s by default), so
 * the retry after the election could come 10-20 s late. These settings keep every client within a
 * second of the election: a capped backoff with enough retries to outlast the fencing, a request
 * timeout that gives up on a silent link (a network partition sends no reset), and metadata that
 * is never older than a bounded age.
 */
export const KAFKA_CLIENT_TIMING_DEFAULTS = {
  requestTimeoutMs: 10_000,
  retryMaxMs: 1000,
  retryInitialMs: 200,
  metadataMaxAgeMs: 30_000,
  rebalanceTimeoutMs: 60_000,
} as const;

/**
 * Retries per request: at a backoff capped at `retryMaxMs`, these outlast a fencing time of Kafka's
 * default (9 s) plus the election, so a request never fails merely because a failover ran.
 */
const RETRIES = 15;

/** Environment variables of the client timing; part of `kafkaEnv`. */
export const kafkaClientTimingEnv = {
  KAFKA_REQUEST_TIMEOUT_MS: env.integer({
    description:
      "Longest a Kafka request waits for its answer before the client drops the connection and retries (kafkajs requestTimeout; kafkajs' default 30000). A link cut without a reset (a network partition) holds a send, a fetch or a commit this long before the client tries another broker; lower fails over sooner, but a broker slower than this under load sees its requests retried",
    default: KAFKA_CLIENT_TIMING_DEFAULTS.requestTimeoutMs,
    min: 1000,
    max: 300_000,
  }),
  KAFKA_RETRY_MAX_MS: env.integer({
    description:
      "Cap of the backoff between a Kafka client's retries (kafkajs maxRetryTime; kafkajs' default 30000): a client retries at most this long after a new leader or coordinator is elected. Lower shortens the stall after a failover; each retry is one request (and a metadata refresh) per waiting client",
    default: KAFKA_CLIENT_TIMING_DEFAULTS.retryMaxMs,
    min: 100,
    max: 60_000,
  }),
  KAFKA_METADATA_MAX_AGE_MS: env.integer({
    description:
      "Longest a client keeps cluster metadata (leaders, brokers) without refreshing it (kafkajs metadataMaxAge; kafkajs' default 300000). An error refreshes it at once; this bounds how long a client can keep using a leader that still answers but no longer leads (an isolated broker). Each refresh is one Metadata request per client",
    default: KAFKA_CLIENT_TIMING_DEFAULTS.metadataMaxAgeMs,
    min: 1000,
    max: 3_600_000,
  }),
  KAFKA_REBALANCE_TIMEOUT_MS: env.integer({
    description:
      "Longest the group coordinator waits for every member to rejoin a rebalance (kafkajs rebalanceTimeout; kafkajs' default 60000). A member inside a long handler delays a rebalance, and every other member's partitions with it, until it rejoins or this passes; keep it above the longest batch a handler may take",
    default: KAFKA_CLIENT_TIMING_DEFAULTS.rebalanceTimeoutMs,
    min: 1000,
    max: 600_000,
  }),
};

/** The timing of {@link kafkaClientTimingEnv}, as the client factories take it. */
export interface KafkaClientTiming {
  requestTimeoutMs: number;
  retryMaxMs: number;
  metadataMaxAgeMs: number;
  rebalanceTimeoutMs: number;
}

/** The timing an app configured. */
export function kafkaClientTiming(config: {
  KAFKA_REQUEST_TIMEOUT_MS: number;
  KAFKA_RETRY_MAX_MS: number;
  KAFKA_METADATA_MAX_AGE_MS: number;
  KAFKA_REBALANCE_TIMEOUT_MS: number;
}): KafkaClientTiming {
  return {
    requestTimeoutMs: config.KAFKA_REQUEST_TIMEOUT_MS,
    retryMaxMs: config.KAFKA_RETRY_MAX_MS,
    metadataMaxAgeMs: config.KAFKA_METADATA_MAX_AGE_MS,
    rebalanceTimeoutMs: config.KAFKA_REBALANCE_TIMEOUT_MS,
  };
}

/** The client-wide retry policy of `timing`: from 200 ms, doubling, capped at `retryMaxMs`. */
export function clientRetry(timing: KafkaClientTiming): RetryOptions {
  return { initialRetryTime: KAFKA_CLIENT_TIMING_DEFAULTS.retryInitialMs, maxRetryTime: timing.retryMaxMs, retries: RETRIES };
}
