import { join } from 'node:path';
import { localStack } from './local-stack.mjs';

/**
 * Brings up what the tests need: Postgres must answer (we never start a database for you); Kafka
 * is started when none answers (docker compose, else the local broker script). Remembers what it
 * started so the teardown stops exactly that.
 */
export default async function globalSetup() {
  const env = localStack.localEnvironment();
  process.env.DATABASE_URL = env.DATABASE_URL;
  process.env.KAFKA_BROKERS = env.KAFKA_BROKERS;
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  await localStack.assertPostgresAnswers(env.DATABASE_URL);
  const root = localStack.findRepoRoot();
  // A broker the tests start keeps its data apart from npm start's and begins empty every run.
  const source = await localStack.ensureKafka(env.KAFKA_BROKERS.split(','), root, {
    localDataDir: join(root, '.local/kafka/test-data'),
    freshLocalData: true,
  });
  globalThis.__kafkaSource = source;
  await localStack.waitForGroupCoordinator(env.KAFKA_BROKERS.split(','));
  console.log(`\n[test setup] Postgres at ${env.DATABASE_URL}; Kafka at ${env.KAFKA_BROKERS} (${source})`);
}
