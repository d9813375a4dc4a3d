// Postgres and Kafka for the benchmark, provisioned as the tests do (test/setup/global-setup.mjs):
// Postgres must answer; a Kafka broker is used when one answers at KAFKA_BROKERS, else the local
// broker script starts one on its own, emptied data directory, and only that one is stopped after.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  assertPostgresAnswers,
  ensureKafka,
  findRepoRoot,
  type KafkaSource,
  localEnvironment,
  stopKafkaStartedBy,
  waitForGroupCoordinator,
} from '@tools/local-stack';

export interface BenchInfrastructure {
  serverUrl: string;
  brokers: string[];
  kafkaSource: KafkaSource;
  repoRoot: string;
}

export async function provisionInfrastructure(log: (text: string) => void): Promise<BenchInfrastructure> {
  const env = localEnvironment();
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  const serverUrl = env.DATABASE_URL!;
  const brokers = env.KAFKA_BROKERS!.split(',');
  await assertPostgresAnswers(serverUrl);
  const repoRoot = findRepoRoot();
  const kafkaSource = await ensureKafka(brokers, repoRoot, {
    localDataDir: join(repoRoot, '.local/kafka/bench-data'),
    freshLocalData: true,
  });
  await waitForGroupCoordinator(brokers);
  log(`Postgres at ${serverUrl}; Kafka at ${brokers.join(',')} (${kafkaSource})`);
  return { serverUrl, brokers, kafkaSource, repoRoot };
}

export function releaseInfrastructure(infrastructure: BenchInfrastructure): void {
  stopKafkaStartedBy(infrastructure.kafkaSource, infrastructure.repoRoot);
}

/** The broker version the project runs (`<kafka.version>` in infra/kafka/pom.xml, the script's and compose's). */
export function projectKafkaVersion(repoRoot: string): string {
  const match = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(join(repoRoot, 'infra/kafka/pom.xml'), 'utf8'));
  return match ? match[1] : 'unknown';
}

export async function postgresVersion(serverUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl, database: 'postgres' });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}
