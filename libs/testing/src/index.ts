export { LocalDefaults, localEnvironment } from './local-defaults.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export { uniqueName } from './unique-name.js';
export { assertTestDatabaseName, createTestDatabase, dropTestDatabase } from './test-database.js';
export { assertPostgresAnswers } from './postgres-probe.js';
export { kafkaAnswers } from './kafka-probe.js';
export { ensureKafka, stopKafkaStartedBy, type KafkaSource } from './ensure-kafka.js';
export { AppProcess, type AppProcessOptions } from './app-process.js';
export { findRepoRoot } from './repo-root.js';
export { pipeWithPrefix } from './pipe-with-prefix.js';
export { runNodeScript, type RunNodeScriptOptions } from './run-node-script.js';
export { describeExit, type ExitInfo, SupervisedApp, type SupervisedAppOptions } from './supervised-app.js';
export { assertPortFree } from './port-probe.js';
export { freePort } from './free-port.js';
export { requestJson, type JsonResponse } from './http-json.js';
export { countRows, queryTestDatabase } from './row-counts.js';
export { TopicRecorder, readTopicUntil, topicEndOffsets, type RecordedMessage, type TopicOffsets, type TopicRecorderOptions } from './topic-recorder.js';
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
