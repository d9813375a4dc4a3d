import { assertPostgresAnswers, ensureKafka, findRepoRoot, localEnvironment } from '@app/testing';

/**
 * Brings up what the tests need: Postgres must answer (we never start a database for you), Kafka
 * is started when none answers (docker compose, else the local broker script). Remembers what it
 * started so the teardown stops exactly that.
 */
export default async function globalSetup(): Promise<void> {
  const env = localEnvironment();
  process.env.DATABASE_URL = env.DATABASE_URL;
  process.env.KAFKA_BROKERS = env.KAFKA_BROKERS;
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  await assertPostgresAnswers(env.DATABASE_URL!);
  const source = await ensureKafka(env.KAFKA_BROKERS!.split(','), findRepoRoot());
  (globalThis as { __kafkaSource?: string }).__kafkaSource = source;
  console.log(`\n[test setup] Postgres at ${env.DATABASE_URL}; Kafka at ${env.KAFKA_BROKERS} (${source})`);
}
