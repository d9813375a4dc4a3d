import { Kafka, logLevel, type Producer, type RetryOptions } from 'kafkajs';
import { kafkaLogCreator } from './kafka-log-creator.js';
import { stickyPartitioner } from './acknowledged-send.js';
import { prepareKafkajs } from './kafkajs-process-setup.js';
import { inflationLimit } from './inflation-limit.js';
import { clientRetry, KAFKA_CLIENT_TIMING_DEFAULTS, kafkaClientTiming, type KafkaClientTiming } from './kafka-client-timing.js';
import type { KafkaConfig } from './kafka.config.js';
import { kafkaSecurity, type KafkaSecurity, kafkaSecurityFromEnvironment } from './kafka-security.config.js';
import { rotatingSeedBroker } from './rotating-seed-broker.js';

// kafkajs prints a banner about its v2 default partitioner on every producer otherwise.
process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
  /**
   * TLS and SASL. Default: read from the process environment (`KAFKA_SASL_*`, `KAFKA_TLS_*`), so a
   * tool or test that builds its own client connects the way the apps do. Pass `{}` for plaintext.
   */
  security?: KafkaSecurity;
  /** Cap of one inflated gzip batch in this process (see `KAFKA_MAX_INFLATED_BATCH_BYTES`); default: the largest that fits the heap (`largestInflationLimit`). */
  maxInflatedBatchBytes?: number;
  /** Request timeout, retry backoff and metadata age (see `kafka-client-timing.ts`); default: the documented defaults. */
  timing?: KafkaClientTiming;
  /** What kafkajs logs; default warnings and errors. A probe that expects brokers to be down may log nothing. */
  logLevel?: logLevel;
  /** Retries per request; default the timing's (`clientRetry`). A probe that retries on its own passes a short budget. */
  retry?: RetryOptions;
}

/**
 * The client options of an app: its brokers, client id, TLS, SASL and inflation cap. Throws a
 * `ConfigValidationError` when they contradict or the cap does not fit the heap; it connects to nothing.
 */
export function kafkaClientOptions(config: KafkaConfig): KafkaClientOptions {
  return {
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID,
    security: kafkaSecurity(config),
    maxInflatedBatchBytes: inflationLimit(config.KAFKA_MAX_INFLATED_BATCH_BYTES, config.KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY),
    timing: kafkaClientTiming(config),
  };
}

/**
 * The timing each client of {@link createKafka} was built with: kafkajs takes the metadata age per
 * producer, not per client, and the producers are built far from the app's configuration.
 */
const clientTimings = new WeakMap<Kafka, KafkaClientTiming>();

/** A kafkajs client that logs warnings and errors only, through the app's pino logger, over TLS and SASL when configured. */
export function createKafka(options: KafkaClientOptions): Kafka {
  prepareKafkajs(options.maxInflatedBatchBytes);
  const timing = options.timing ?? KAFKA_CLIENT_TIMING_DEFAULTS;
  const kafka = new Kafka({
    ...(options.security ?? kafkaSecurityFromEnvironment()),
    clientId: options.clientId,
    brokers: rotatingSeedBroker(options.brokers),
    logLevel: options.logLevel ?? logLevel.WARN,
    logCreator: kafkaLogCreator(),
    requestTimeout: timing.requestTimeoutMs,
    retry: options.retry ?? clientRetry(timing),
  });
  clientTimings.set(kafka, timing);
  return kafka;
}

/**
 * `acks` for every send through {@link createIdempotentProducer}: -1 (all). The leader answers only
 * once every in-sync replica has the record, and with `min.insync.replicas=2` it refuses the write
 * (NOT_ENOUGH_REPLICAS) rather than keep it on one broker. Cost: a round trip to the slowest
 * in-sync follower per request. With acks=1 a leader killed right after its answer takes the
 * record with it (Jepsen's Kafka analysis), and the outbox row would already be marked published.
 */
export const ACKS_ALL = -1;

/** Options of {@link createIdempotentProducer}. */
export interface IdempotentProducerOptions {
  /**
   * kafkajs' retries inside one send. Default: the client's (`clientRetry`: enough to outlast a
   * failover, some 15 s in all). A caller with its own backoff (the outbox relay) passes a short budget: a send then
   * fails within seconds and the caller retries it later, instead of holding its transaction and
   * lock while kafkajs waits out a leader election.
   */
  retry?: RetryOptions;
}

/**
 * The one way this workspace builds a producer for records that must not be lost or reordered:
 * the outbox relay, the dead-letter publisher and the ops tools all use it.
 *
 * - `idempotent: true` lets the broker drop the duplicates kafkajs's own retries would create.
 * - `maxInFlightRequests: 1` keeps order when a request is retried; callers must also await one
 *   `send`/`sendBatch` at a time (concurrent idempotent sends can lose messages, kafkajs#1005).
 * - every send passes `acks: ACKS_ALL` (kafkajs takes acks per send, not per producer).
 * - `allowAutoTopicCreation: false`: a typo in a topic name fails instead of creating a topic
 *   with the broker's defaults; the apps create their topics at start-up (`ensureTopics`).
 * - the {@link stickyPartitioner}: what `sendBatchAcknowledged` needs to see which partitions a
 *   batch went to; a batch over several partitions must be sent with it (kafkajs#1303).
 *
 * A failed send leaves kafkajs's idempotent sequence numbers rolled back even when the broker
 * kept the records (kafkajs#598: OUT_OF_ORDER_SEQUENCE_NUMBER, or a silent "duplicate" ack for
 * different records afterwards): callers retire the producer after any failed send and build a
 * new one (a new producer id), as the relay and the dead-letter publisher do.
 */
export function createIdempotentProducer(kafka: Kafka, options: IdempotentProducerOptions = {}): Producer {
  return kafka.producer({
    metadataMaxAge: (clientTimings.get(kafka) ?? KAFKA_CLIENT_TIMING_DEFAULTS).metadataMaxAgeMs,
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: stickyPartitioner,
    retry: options.retry,
  });
}
