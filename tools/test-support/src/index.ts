// What tests need to own their data and wait on conditions: throw-away databases, unique names,
// waits with a deadline, readers of Kafka topics, a JSON request, a free port. A leaf: it loads no
// app and nothing of tools/local-stack (test/foundation/architecture.spec.ts), so a library's spec
// that imports it does not start the service catalog. tools/local-stack re-exports it.
export { waitFor, type WaitForOptions } from './wait-for.js';
export { uniqueName, uniqueSku } from './unique-name.js';
export {
  assertTestDatabaseName,
  createTestDatabase,
  dropTestDatabase,
  dropUndroppedTestDatabases,
  queryTestDatabase,
} from './postgres/test-database.js';
export { fetchEndOffsets } from './kafka/end-offsets.js';
export {
  TopicRecorder,
  readTopicUntil,
  recordsByKey,
  topicEndOffsets,
  type RecordedMessage,
  type TopicOffsets,
  type TopicRecorderOptions,
} from './kafka/topic-recorder.js';
export { requestJson, type JsonResponse } from './http/request-json.js';
export { freePort } from './ports/free-port.js';
export { layerAloneSetting, layerSettings, type LayerSetting } from './layers/layer-settings.js';
