export { kafkaEnv, type KafkaConfig } from './kafka.config.js';
export {
  ACKS_ALL,
  createKafka,
  createIdempotentProducer,
  kafkaClientOptions,
  type IdempotentProducerOptions,
  type KafkaClientOptions,
} from './kafka.factory.js';
export {
  kafkaSecurity,
  kafkaLaptopSettings,
  kafkaSecurityEnv,
  kafkaSecurityFromEnvironment,
  type KafkaSecurity,
  type KafkaSecurityConfig,
} from './kafka-security.config.js';
export {
  describeRecords,
  PartitionsNotAcknowledged,
  sendBatchAcknowledged,
  stickyPartitioner,
  unacknowledged,
} from './acknowledged-send.js';
export { registerCappedGzip, cappedGzipCodec } from './capped-gzip.codec.js';
export { inflationLimit, largestInflationLimit } from './inflation-limit.js';
export { ensureTopics, describeCluster, topicSettings, type TopicSettings } from './kafka-admin.js';
export { probeKafka, kafkaCredentialsRefused } from './kafka-start-up.probe.js';
export { restartAfterCrash, type RestartAfterCrashOptions } from './consumer-crash.restart.js';
export { kafkaServerOptions } from './kafka-server.options.js';
export { KAFKA_HEALTH_OPTIONS, KafkaHealthIndicator, kafkaHealthOptions, type KafkaHealthOptions } from './kafka.health.js';
export { kafkaHealthEnv, type KafkaHealthConfig } from './kafka-health.config.js';
export { KafkaModule } from './kafka.module.js';
export { assertInboxOutlivesTopics, inboxRetentionProblems, topicRetentionMs } from './topic-retention.js';
export { consumerLag, type PartitionLag } from './consumer-lag.js';
export { consumerLagEnv } from './consumer-lag.config.js';
export { ConsumerLagMonitor, type ConsumerLagOptions } from './consumer-lag.monitor.js';
export { ConsumerLagModule } from './consumer-lag.module.js';
export { installKafkaRequestCounting, kafkaRequestCounts, KafkaRequestMetrics } from './kafka-request.counter.js';
export { RenewableProducer } from './renewable-producer.js';
