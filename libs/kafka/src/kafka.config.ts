import { env, type EnvConfig } from '@libs/config';
import { kafkaClientTimingEnv } from './kafka-client-timing.js';
import { kafkaSecurityEnv } from './kafka-security.config.js';

/** Environment variables of every app that talks to Kafka. */
export function kafkaEnv(defaultClientId: string) {
  return {
    KAFKA_BROKERS: env.list({
      description:
        "Kafka bootstrap servers, host:port, comma-separated, e.g. 127.0.0.1:9092; a process's new clients take turns asking each of them first for the cluster metadata",
      itemPattern: /^[A-Za-z0-9.-]+:\d{1,5}$/,
    }),
    KAFKA_CLIENT_ID: env.string({
      description: 'Client id this service shows to the broker (logs, quotas)',
      default: defaultClientId,
    }),
    KAFKA_CONSUMER_GROUP: env.string({
      description: "Consumer group of this service's Kafka handlers; replicas share it",
      default: defaultClientId,
    }),
    KAFKA_TOPIC_PARTITIONS: env.integer({
      description: 'Partitions of topics this service creates at start-up when missing',
      default: 3,
      min: 1,
      max: 1000,
    }),
    KAFKA_TOPIC_REPLICATION_FACTOR: env.integer({
      description:
        "Replication factor of topics this service creates at start-up when missing; -1 takes the broker's default.replication.factor. Production: 3 (with acks=all and min in-sync replicas 2 a write survives the loss of one broker); each replica costs disk and replication traffic",
      default: -1,
      min: -1,
      max: 32,
    }),
    KAFKA_TOPIC_MIN_INSYNC_REPLICAS: env.integer({
      description:
        "min.insync.replicas of topics this service creates; -1 takes the broker's. Production: 2 with replication factor 3: an acks=all write is refused (NOT_ENOUGH_REPLICAS) rather than kept on one broker only; higher refuses writes sooner when brokers are down",
      default: -1,
      min: -1,
      max: 32,
    }),
    KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY: env.integer({
      description:
        'Partitions this process handles at the same time (kafkajs partitionsConsumedConcurrently); order within a partition holds at any value. Above the partitions it is assigned, it changes nothing; each concurrent partition may hold a database connection',
      default: 3,
      min: 1,
      max: 100,
    }),
    KAFKA_FETCH_MIN_BYTES: env.integer({
      description:
        'Bytes a consumer fetch waits for before the broker answers (kafkajs minBytes), up to KAFKA_FETCH_MAX_WAIT_MS: higher gathers more records per fetch, so fewer fetch requests, inbox transactions and offset commits per message, at up to KAFKA_FETCH_MAX_WAIT_MS more latency when traffic is light',
      default: 1,
      min: 1,
      max: 10 * 1024 * 1024,
    }),
    KAFKA_FETCH_MAX_WAIT_MS: env.integer({
      description:
        "Longest the broker holds a consumer fetch waiting for KAFKA_FETCH_MIN_BYTES (kafkajs maxWaitTimeInMs); with KAFKA_FETCH_MIN_BYTES=1 it only bounds an idle poll. It also bounds a graceful stop: kafkajs disconnects a consumer only once its fetch in flight returns. 500 is the Java consumer's fetch.max.wait.ms; kafkajs' own 5000 made every stop of an idle app take 5 s",
      default: 500,
      min: 0,
      max: 60_000,
    }),
    KAFKA_MAX_INFLATED_BATCH_BYTES: env.integer({
      description:
        "Most bytes one gzip-compressed batch may inflate to in this process; a batch beyond it is not inflated, and its records are dead-lettered unparsed as INFLATION_LIMIT. 0: the largest that fits the heap (the batches of KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY partitions, parsed at JSON's worst 24 bytes of heap per byte, within half of v8's heap limit; about 0.9 MiB with --max-old-space-size=128 and 3 partitions). A larger value is refused at start-up; lower refuses more compressed batches",
      default: 0,
      min: 0,
      max: 1024 * 1024 * 1024,
    }),
    ...kafkaSecurityEnv,
    ...kafkaClientTimingEnv,
    KAFKA_SESSION_TIMEOUT_MS: env.integer({
      description:
        'Consumer session timeout: how long a dead member holds its partitions before a rebalance; lower fails over faster, but a long GC pause or handler then costs a rebalance',
      default: 30_000,
      min: 6000,
      max: 300_000,
    }),
  };
}

/** What {@link kafkaEnv} yields, defaults applied. */
export type KafkaConfig = EnvConfig<ReturnType<typeof kafkaEnv>>;
