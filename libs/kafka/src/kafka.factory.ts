import { Kafka, logLevel, type Producer } from 'kafkajs';

// kafkajs prints a banner about its v2 default partitioner on every producer otherwise.
process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';

export interface KafkaClientOptions {
  brokers: string[];
  clientId: string;
}

/** A kafkajs client that logs warnings and errors only. */
export function createKafka(options: KafkaClientOptions): Kafka {
  return new Kafka({
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
