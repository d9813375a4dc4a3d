export { kafkaEnv, type KafkaConfig } from './kafka.config.js';
export { createKafka, createIdempotentProducer, type KafkaClientOptions } from './kafka.factory.js';
export { ensureTopics, describeCluster } from './kafka-admin.js';
export { kafkaServerOptions } from './kafka-server.options.js';
export { KafkaHealthIndicator } from './kafka.health.js';
export { KafkaModule } from './kafka.module.js';
export { assertInboxOutlivesTopics, inboxRetentionProblems, topicRetentionMs } from './topic-retention.js';
