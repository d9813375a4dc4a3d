import { Kafka, logLevel, type Producer } from 'kafkajs';
import { registerCappedGzip } from './capped-gzip.codec.js';
import type { KafkaConfig } from './kafka.config.js';
import { kafkaSecurity, type KafkaSecurity, kafkaSecurityFromEnvironment } from './kafka-security.config.js';

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
  /** Cap of one inflated gzip batch in this process (see `KAFKA_MAX_INFLATED_BATCH_BYTES`); default 64 MiB. */
  maxInflatedBatchBytes?: number;
}

/** The client options of an app: its brokers, client id, TLS and SASL. Throws when they contradict. */
export function kafkaClientOptions(config: KafkaConfig): KafkaClientOptions {
  return {
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID,
    security: kafkaSecurity(config),
    maxInflatedBatchBytes: config.KAFKA_MAX_INFLATED_BATCH_BYTES,
  };
}

/** A kafkajs client that logs warnings and errors only, over TLS and SASL when configured. */
export function createKafka(options: KafkaClientOptions): Kafka {
  registerCappedGzip(options.maxInflatedBatchBytes);
  return new Kafka({
    ...(options.security ?? kafkaSecurityFromEnvironment()),
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    retry: { initialRetryTime: 200, retries: 8 },
  });
}

/**
 * A producer for at-least-once publishing that keeps per-partition order across its own retries.
 *
 * - `idempotent: true` lets the broker drop the duplicates kafkajs's own retries would create.
 * - `maxInFlightRequests: 1` keeps order when a request is retried; callers must also await one
 *   `send`/`sendBatch` at a time (concurrent idempotent sends can lose messages, kafkajs#1005).
 * - acks -1 is passed per send: the record is on every in-sync replica before we call it published.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
}
