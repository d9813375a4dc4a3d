export { LocalDefaults, localEnvironment } from './local-defaults.js';
export { testInfrastructure, type TestInfrastructure } from './test-infrastructure.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export { uniqueName, uniqueSku } from './unique-name.js';
export { assertTestDatabaseName, createTestDatabase, dropTestDatabase } from './test-database.js';
export { assertPostgresAnswers } from './postgres-probe.js';
export { kafkaAnswers, waitForGroupCoordinator } from './kafka-probe.js';
export { ensureKafka, stopKafkaStartedBy, type EnsureKafkaOptions, type KafkaSource } from './ensure-kafka.js';
export { AppProcess, type AppProcessOptions } from './app-process.js';
export { findRepoRoot } from './repo-root.js';
export { pipeWithPrefix } from './pipe-with-prefix.js';
export { runNodeScript, type RunNodeScriptOptions } from './run-node-script.js';
export { describeExit, type ExitInfo } from './exit-info.js';
export { SupervisedApp, type SupervisedAppOptions } from './supervised-app.js';
export { assertPortFree } from './port-probe.js';
export { freePort } from './free-port.js';
export { requestJson, type JsonResponse } from './http-json.js';
export { logLinesMentioning } from './log-lines.js';
export { countRows, queryTestDatabase } from './row-counts.js';
export { TopicRecorder, readTopicUntil, recordsByKey, topicEndOffsets, type RecordedMessage, type TopicOffsets, type TopicRecorderOptions } from './topic-recorder.js';
export { PrivateKafka } from './private-kafka.js';
export { startGroupAtEnd, committedOffsets, deleteConsumerGroups } from './consumer-group-position.js';
export { publishRecords, eventRecord, type RawRecord, type RecordPosition, type EventRecordOptions } from './raw-records.js';
export { scrapeMetric, sumMetric } from './scrape-metric.js';
export {
  ServiceProcess,
  migrateServiceDatabase,
  compiledEntry,
  type ServiceName,
  type ServiceProcessOptions,
  type RestartOptions,
} from './service-process.js';
export { TestServices, type TestServiceOptions } from './test-services.js';
export { placeOrder, type OrderLineBody, type OrderView, type PlaceOrderBody, type PlaceOrderOptions } from './orders-api.js';
export { setStock } from './inventory-api.js';
export { orderCreatedPayload } from './order-payloads.js';
export { waitForInboxMessage, type WaitForInboxMessageOptions } from './inbox-rows.js';
export { waitForDeadLetter, type WaitForDeadLetterOptions } from './dead-letters.js';
export { MetricBaseline } from './metric-baseline.js';
export { outboxRowsOf, waitForOutboxDrained, type OutboxRowState, type WaitForOutboxDrainedOptions } from './outbox-rows.js';
export { APP_NODE_FLAGS } from './app-node-flags.js';
