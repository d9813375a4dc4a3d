import { type KafkaOptions, Transport } from '@nestjs/microservices';
import { registerCappedGzip } from './capped-gzip.codec.js';
import type { KafkaConfig } from './kafka.config.js';
import { kafkaSecurity } from './kafka-security.config.js';

/**
 * Options of the Nest Kafka transport for an app's `@EventPattern` handlers.
 *
 * - `postfixId: ''`: the group id is exactly `KAFKA_CONSUMER_GROUP`, not Nest's `<id>-server`.
 * - autoCommit stays on: kafkajs commits an offset only after `eachMessage` resolved, and Nest
 *   resolves it only after the handler (and every interceptor) finished, so "offset after commit"
 *   holds as long as the transaction is awaited inside the handler pipeline.
 */
export function kafkaServerOptions(config: KafkaConfig, overrides: { fromBeginning?: boolean } = {}): KafkaOptions {
  registerCappedGzip(config.KAFKA_MAX_INFLATED_BATCH_BYTES);
  return {
    transport: Transport.KAFKA,
    options: {
      postfixId: '',
      client: { ...kafkaSecurity(config), clientId: config.KAFKA_CLIENT_ID, brokers: config.KAFKA_BROKERS, retry: { retries: 8 } },
      consumer: {
        groupId: config.KAFKA_CONSUMER_GROUP,
        allowAutoTopicCreation: false,
        sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS,
        // Kafka's advice: at most a third of the session timeout.
        heartbeatInterval: Math.floor(config.KAFKA_SESSION_TIMEOUT_MS / 10),
      },
      subscribe: { fromBeginning: overrides.fromBeginning ?? true },
      run: { partitionsConsumedConcurrently: config.KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY },
      producer: { allowAutoTopicCreation: false },
    },
  };
}
