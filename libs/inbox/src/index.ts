export { InboxMessage } from './claim/inbox-message.entity.js';
export { CreateInboxMessages1764460800020, INBOX_UNFILTERED_COLUMNS } from './claim/create-inbox-messages.migration.js';
export { PartitionInboxMessages1764460801010 } from './claim/partition-inbox-messages.migration.js';
export { CreateInboxWorkMarks1764460800025 } from './crash-loop/create-inbox-work-marks.migration.js';
export { CRASHED_CONSUMER } from './crash-loop/crash-loop.breaker.js';
export { inboxEnv, type InboxConfig } from './inbox.config.js';
export type { InboxEnvelope, RawInboxMessage } from './envelope/inbox.envelope.js';
export { DeadLetterPublisher, type DeadLetter } from './dead-letter/dead-letter.publisher.js';
export {
  consumedTopic,
  consumedTopics,
  eachMessage,
  inboxTopics,
  type Accepts,
  type AppConsumes,
  type ConsumedTopic,
  type ConsumedTopicOptions,
  type HandlerMap,
  type InboxBatchLocks,
  type InboxHandler,
  type LockNeeds,
  type MessageHandler,
  type PayloadOf,
} from './routing/consumed-topic.declaration.js';
export { inboxRoute, type InboxRoute } from './routing/inbox.route.js';
export { inMessageScopeOf } from './telemetry/inbox.telemetry.js';
export type { InboxBatch, InboxOutcome } from './core/inbox.batch.js';
export { InboxConsumer } from './core/inbox.consumer.js';
export { inboxLayers, LayeredInbox } from './layers/inbox.layers.js';
export { InboxMetrics } from './telemetry/inbox.metrics.js';
export { inboxBatchOf } from './transport/inbox-kafka.batch.js';
export { connectInboxKafka } from './transport/inbox-kafka.connect.js';
export { inboxRetention } from './retention/inbox.retention.js';
export { InboxModule } from './inbox.module.js';
export { InboxFailpoints } from './inbox.failpoints.js';
