import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { kafkaAnswers } from './kafka-probe.js';
import { waitFor } from '../wait-for.js';

export type KafkaSource = 'already-running' | 'docker-compose' | 'local-script';

function commandWorks(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore', timeout: 15_000 }).status === 0;
}

export interface EnsureKafkaOptions {
  /**
   * Broker data directory for the local broker script (`KAFKA_LOCAL_DATA_DIR`); default the
   * script's own. The tests use a separate one, so their traffic never lands in the topics that
   * `npm start` later consumes from the beginning.
   */
  localDataDir?: string;
  /** Delete `localDataDir` before starting the local broker: every test run starts from empty topics. */
  freshLocalData?: boolean;
}

/**
 * Makes sure a broker answers at `brokers`, in this order: one that already answers; else
 * `docker compose up -d kafka` when a Docker engine answers; else the project's local broker
 * script when `java` and `mvn` exist; else an error that says what is missing.
 */
export async function ensureKafka(brokers: string[], repoRoot: string, options: EnsureKafkaOptions = {}): Promise<KafkaSource> {
  if (await kafkaAnswers(brokers)) return 'already-running';
  if (commandWorks('docker', ['info'])) {
    execFileSync('docker', ['compose', 'up', '-d', 'kafka'], { cwd: repoRoot, stdio: 'inherit' });
    await waitFor(() => kafkaAnswers(brokers), { timeoutMs: 120_000, intervalMs: 1000, description: 'Kafka from docker compose' });
    return 'docker-compose';
  }
  const missing = ['java', 'mvn'].filter((tool) => !commandWorks(tool, ['-version']));
  if (missing.length > 0) {
    throw new Error(
      `No Kafka answers at KAFKA_BROKERS=${brokers.join(',')}, no Docker engine answers, and ` +
        `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing for the local broker script. ` +
        'Start a broker, start Docker, or install Java 17+ and Maven.',
    );
  }
  if (options.localDataDir && options.freshLocalData) rmSync(options.localDataDir, { recursive: true, force: true });
  const env = options.localDataDir ? { ...process.env, KAFKA_LOCAL_DATA_DIR: options.localDataDir } : process.env;
  execFileSync('bash', [resolve(repoRoot, 'scripts/kafka-local.sh'), 'start'], { cwd: repoRoot, stdio: 'inherit', env });
  await waitFor(() => kafkaAnswers(brokers), { timeoutMs: 60_000, intervalMs: 500, description: 'the local Kafka broker' });
  return 'local-script';
}

/** Stops the broker that {@link ensureKafka} started, if it started one. */
export function stopKafkaStartedBy(source: KafkaSource, repoRoot: string): void {
  if (source === 'local-script') {
    execFileSync('bash', [resolve(repoRoot, 'scripts/kafka-local.sh'), 'stop'], { cwd: repoRoot, stdio: 'inherit' });
  } else if (source === 'docker-compose') {
    execFileSync('docker', ['compose', 'stop', 'kafka'], { cwd: repoRoot, stdio: 'inherit' });
  }
}
