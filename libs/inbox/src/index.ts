export { InboxMessage } from './inbox-message.entity.js';
export { CreateInboxMessages1764460800020, INBOX_UNFILTERED_COLUMNS } from './create-inbox-messages.migration.js';
export { inboxEnv, type InboxConfig } from './inbox.config.js';
export type { InboxEnvelope, RawInboxMessage } from './inbox-envelope.js';
export { DeadLetterPublisher, type DeadLetter } from './dead-letter.publisher.js';
export {
  consumedTopic,
  consumedTopics,
  eachMessage,
  inboxRoute,
  inboxTopics,
  type Accepts,
  type AppConsumes,
  type ConsumedTopic,
  type ConsumedTopicOptions,
  type HandlerMap,
  type InboxBatchLocks,
  type InboxHandler,
  type InboxRoute,
  type LockNeeds,
  type MessageHandler,
  type PayloadOf,
} from './inbox-consumes.js';
export { inMessageScopeOf } from './inbox-telemetry.js';
export { InboxConsumer, type InboxBatch, type InboxOutcome } from './inbox.consumer.js';
export { InboxMetrics } from './inbox.metrics.js';
export { inboxBatchOf } from './inbox-kafka-batch.js';
export { connectInboxKafka } from './inbox-kafka.connect.js';
export { inboxRetention } from './inbox.cleanup.js';
export { InboxModule } from './inbox.module.js';
export { InboxFailpoints } from './inbox.failpoints.js';
