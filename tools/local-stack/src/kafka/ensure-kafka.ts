import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { applyKafkaAcls } from './kafka-acls.js';
import { kafkaAnswers, kafkaPortAnswers } from './kafka-probe.js';
import { toolingKafkaSecurity, usesLocalKafkaCredentials } from './local-kafka-access.js';
import { localKafkaCredentials } from './local-kafka-credentials.js';
import { waitFor } from '@tools/test-support';

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
 * script when `java` and `mvn` exist; else an error that says what is missing. The tooling
 * authenticates as {@link toolingKafkaSecurity} says; with the local credentials it then creates
 * every ACL of the system (see `kafkaAclRules`), so a broker it found or started refuses each
 * service principal outside them.
 */
export async function ensureKafka(brokers: string[], repoRoot: string, options: EnsureKafkaOptions = {}): Promise<KafkaSource> {
  const source = await brokerAnswering(brokers, repoRoot, options);
  if (usesLocalKafkaCredentials()) await applyKafkaAcls(brokers, toolingKafkaSecurity());
  return source;
}

async function brokerAnswering(brokers: string[], repoRoot: string, options: EnsureKafkaOptions): Promise<KafkaSource> {
  const security = toolingKafkaSecurity();
  const answers = () => kafkaAnswers(brokers, 3000, security);
  if (await answers()) return 'already-running';
  if (await kafkaPortAnswers(brokers)) {
    throw new Error(
      `A Kafka broker listens at KAFKA_BROKERS=${brokers.join(',')} but refuses the tooling's credentials ` +
        `(user ${process.env.KAFKA_SASL_USERNAME || 'admin'}). The local brokers require ` +
        'SASL/SCRAM with the users of .local/kafka-credentials.properties: stop a broker started before that ' +
        '(scripts/kafka-local.sh stop), or set KAFKA_SASL_* to credentials that broker accepts.',
    );
  }
  if (commandWorks('docker', ['info'])) {
    // Compose's broker takes its users' passwords from the environment: these, the local ones.
    const passwords = Object.fromEntries(
      Object.entries(localKafkaCredentials()).map(([user, password]) => [`KAFKA_${user.toUpperCase()}_PASSWORD`, password]),
    );
    execFileSync('docker', ['compose', 'up', '-d', 'kafka', 'kafka-setup'], {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, ...passwords },
    });
    await waitFor(answers, { timeoutMs: 120_000, intervalMs: 1000, description: 'Kafka from docker compose' });
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
  await waitFor(answers, { timeoutMs: 60_000, intervalMs: 500, description: 'the local Kafka broker' });
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
