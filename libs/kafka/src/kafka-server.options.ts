import { type KafkaOptions, Transport } from '@nestjs/microservices';
import { logLevel } from 'kafkajs';
import { prepareKafkajs } from './kafkajs-process-setup.js';
import { inflationLimit } from './inflation-limit.js';
import { kafkaLogCreator } from './kafka-log-creator.js';
import type { KafkaConfig } from './kafka.config.js';
import { kafkaSecurity } from './kafka-security.config.js';
import { clientRetry, kafkaClientTiming } from './kafka-client-timing.js';
import { rotatingSeedBroker } from './rotating-seed-broker.js';

/**
 * Options of the Nest Kafka transport an app consumes with (the inbox's `InboxKafkaServer`).
 *
 * - `postfixId: ''`: the group id is exactly `KAFKA_CONSUMER_GROUP`, not Nest's `<id>-server`.
 * - Offset commits are the inbox's (`InboxKafkaServer` runs the consumer with `autoCommit: false`
 *   and commits paced): only resolved offsets are committed, and the inbox resolves a record's
 *   offset only after its transaction committed, so "offset after commit" holds.
 */
export function kafkaServerOptions(config: KafkaConfig, overrides: { fromBeginning?: boolean } = {}): KafkaOptions {
  // The Nest transport builds its own kafkajs client: the process-wide set-up goes in here too.
  prepareKafkajs(inflationLimit(config.KAFKA_MAX_INFLATED_BATCH_BYTES, config.KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY));
  const timing = kafkaClientTiming(config);
  return {
    transport: Transport.KAFKA,
    options: {
      postfixId: '',
      client: {
        ...kafkaSecurity(config),
        clientId: config.KAFKA_CLIENT_ID,
        brokers: rotatingSeedBroker(config.KAFKA_BROKERS),
        requestTimeout: timing.requestTimeoutMs,
        retry: clientRetry(timing),
        // Warnings and errors only, through the app's pino logger, as createKafka's clients.
        logLevel: logLevel.WARN,
        logCreator: kafkaLogCreator(),
      },
      consumer: {
        groupId: config.KAFKA_CONSUMER_GROUP,
        allowAutoTopicCreation: false,
        sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS,
        rebalanceTimeout: timing.rebalanceTimeoutMs,
        // kafkajs gives a consumer `{ retries: 5 }` over the client's policy unless told otherwise:
        // about 3.4 s of retries, shorter than a failover, after which the consumer crashes and
        // rejoins its group as a new member.
        retry: clientRetry(timing),
        metadataMaxAge: timing.metadataMaxAgeMs,
        // Kafka's advice: at most a third of the session timeout.
        heartbeatInterval: Math.floor(config.KAFKA_SESSION_TIMEOUT_MS / 10),
        minBytes: config.KAFKA_FETCH_MIN_BYTES,
        maxWaitTimeInMs: config.KAFKA_FETCH_MAX_WAIT_MS,
      },
      subscribe: { fromBeginning: overrides.fromBeginning ?? true },
      run: { partitionsConsumedConcurrently: config.KAFKA_PARTITIONS_CONSUMED_CONCURRENTLY },
      producer: { allowAutoTopicCreation: false },
    },
  };
}
