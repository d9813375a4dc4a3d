export { LocalDefaults, localEnvironment } from './local-defaults.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export { uniqueName } from './unique-name.js';
export { assertTestDatabaseName, createTestDatabase, dropTestDatabase } from './test-database.js';
export { assertPostgresAnswers } from './postgres-probe.js';
export { kafkaAnswers } from './kafka-probe.js';
export { ensureKafka, stopKafkaStartedBy, type KafkaSource } from './ensure-kafka.js';
export { AppProcess, type AppProcessOptions } from './app-process.js';
export { findRepoRoot } from './repo-root.js';
