// What `npm start` and the other local commands, the benchmarks and the tests use to run the stack
// on this machine: where things are, probes, broker control, the service catalog, one way to run a
// Node process, and (re-exported from the leaf @tools/test-support) throw-away databases, waits and
// the readers that watch Kafka. Never imported by apps/ or libs/, specs included
// (test/foundation/architecture.spec.ts): their specs import @tools/test-support.
export { findRepoRoot } from './environment/repo-root.js';
export { LocalDefaults, localEnvironment } from './environment/local-defaults.js';
export { toolingEnvSections, type ToolingEnvSection } from './environment/tooling-env.js';
export { composeEnv } from './compose/compose.env.js';
export { printableUrl } from './environment/printable-url.js';
export {
  assertTestDatabaseName,
  createTestDatabase,
  dropTestDatabase,
  dropUndroppedTestDatabases,
  freePort,
  queryTestDatabase,
  readTopicUntil,
  recordsByKey,
  requestJson,
  topicEndOffsets,
  TopicRecorder,
  uniqueName,
  uniqueSku,
  waitFor,
  type JsonResponse,
  type RecordedMessage,
  type TopicOffsets,
  type TopicRecorderOptions,
  type WaitForOptions,
} from '@tools/test-support';
export {
  commandHelp,
  parseCommandLine,
  readCommandLine,
  type CommandLine,
  type CommandRun,
  type CommandSpec,
  type FlagSpec,
  type FlagValues,
} from './cli/command-line.js';
export { NodeProcess, type NodeProcessOptions } from './processes/node-process.js';
export { APP_NODE_FLAGS } from './processes/app-node-flags.js';
export { APP_PROCESS_ENV } from './processes/app-process-env.js';
export { describeExit, type ExitInfo } from './processes/exit-info.js';
export { DEFAULT_RESTART_BACKOFF, RestartBackoff, type RestartBackoffOptions } from './processes/restart-backoff.js';
export { assertPortFree } from './ports/port-probe.js';
export { assertPostgresAnswers } from './postgres/postgres-probe.js';
export { embeddedPostgresDir, ensurePostgres, type LocalPostgres, type PostgresSource } from './postgres/ensure-postgres.js';
export { localDatabaseName } from './postgres/local-databases.env.js';
export { kafkaAnswers, kafkaPortAnswers, waitForGroupCoordinator } from './kafka/kafka-probe.js';
export {
  KAFKA_USERS,
  OPS_GROUP_PREFIX,
  consumerGroupPrefix,
  kafkaAclRules,
  kafkaPrincipalOf,
  type AclOperation,
  type KafkaAclRule,
  type KafkaPrincipal,
  type KafkaServicePrincipal,
  type KafkaUser,
} from './kafka/kafka-principals.js';
export {
  kafkaSaslEnv,
  kafkaSaslSecurity,
  localKafkaCredentials,
  localKafkaCredentialsFile,
  parseKafkaCredentials,
  type KafkaCredentials,
} from './kafka/local-kafka-credentials.js';
export { aclEntries, applyKafkaAcls } from './kafka/kafka-acls.js';
export { renderKafkaAclTable, withKafkaAclTable } from './kafka/kafka-acl-table.js';
export { localToolingEnv, toolingKafkaSecurity, usesLocalKafkaCredentials } from './kafka/local-kafka-access.js';
export { prepareLocalTopics } from './kafka/local-topics.js';
export {
  localProducerKeys,
  localProducerSigningKey,
  localServiceSigningEnv,
  localSigningEnvs,
  localSigningKeysFile,
  localVerifyEnv,
} from './envelope/local-signing-keys.js';
export { LocalKafkaCluster, type LocalKafkaClusterOptions } from './kafka/local-kafka-cluster.js';
export { ensureKafka, stopKafkaStartedBy, type EnsureKafkaOptions, type KafkaSource } from './kafka/ensure-kafka.js';
export { startGroupAtEnd, committedOffsets, deleteConsumerGroups } from './kafka/consumer-group-position.js';
export { DevIssuer, DevIssuerClaims, DevServiceClient, type DevTokenClaims } from './auth/dev-issuer.js';
export { devIssuerFile, devIssuerPort, localIssuer } from './auth/local-issuer.js';
export {
  services,
  serviceNamed,
  mainEntry,
  migrateEntry,
  servicePort,
  partitionByPresence,
  type ServiceDescriptor,
  type ServiceName,
} from './services/service-catalog.js';
export { messageCatalog } from './services/message-catalog.js';
export { compiledEntry } from './services/compiled-entry.js';
export { runMigrations, migrateServiceDatabase, type RunMigrationsOptions } from './services/run-migrations.js';
export { ServiceProcess, type ServiceProcessOptions, type RestartOptions } from './services/service-process.js';
export { ServiceSet, type Infrastructure, type ServiceSetStartOptions } from './services/service-set.js';
export { NetworkLab, type NetworkPlacement } from './network/network-lab.js';
export { makeKafkaStateDir } from './kafka/kafka-state-dir.js';
export type { LinkCut } from './network/link-cut.js';
