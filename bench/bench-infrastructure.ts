// Postgres and Kafka for the benchmark, provisioned as the tests do (test/setup/global-setup.mjs):
// Postgres must answer; a Kafka broker is used when one answers at KAFKA_BROKERS, else the local
// broker script starts one on its own, emptied data directory, and only that one is stopped after;
// a token issuer of the run's own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  type ServiceName,
  assertPostgresAnswers,
  DevIssuer,
  ensureKafka,
  findRepoRoot,
  type KafkaCredentials,
  type KafkaSource,
  localEnvironment,
  localKafkaCredentials,
  localSigningEnvs,
  localToolingEnv,
  printableUrl,
  ServiceSet,
  stopKafkaStartedBy,
  waitForGroupCoordinator,
} from '@tools/local-stack';

export interface BenchInfrastructure {
  serverUrl: string;
  brokers: string[];
  kafkaSource: KafkaSource;
  repoRoot: string;
  /** The run's token issuer (a fresh key pair), which every app started trusts. */
  issuer: DevIssuer;
  /** Its `AUTH_*` variables, each app's own (its audience). */
  authEnv: Record<ServiceName, Record<string, string>>;
  /** The local brokers' users: every app authenticates as its own principal, as under `npm start`. */
  kafkaCredentials: KafkaCredentials;
  /** The local envelope keys of each app (its own private key, the public keys it needs), as under `npm start`. */
  signingEnv: Record<ServiceName, Record<string, string>>;
}

export async function provisionInfrastructure(log: (text: string) => void): Promise<BenchInfrastructure> {
  const env = localEnvironment();
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  // The bench's own clients (load, probes) as the local `admin` user, with the local signing keys.
  Object.assign(process.env, localToolingEnv());
  const serverUrl = env.DATABASE_URL!;
  const brokers = env.KAFKA_BROKERS!.split(',');
  await assertPostgresAnswers(serverUrl);
  const repoRoot = findRepoRoot();
  const kafkaSource = await ensureKafka(brokers, repoRoot, {
    localDataDir: join(repoRoot, '.local/kafka/bench-data'),
    freshLocalData: true,
  });
  await waitForGroupCoordinator(brokers);
  const issuer = await DevIssuer.create();
  await issuer.listen(0, '127.0.0.1');
  log(`Postgres at ${printableUrl(serverUrl)}; Kafka at ${brokers.join(',')} (${kafkaSource}); token issuer at ${issuer.jwksUrl}`);
  return {
    serverUrl,
    brokers,
    kafkaSource,
    repoRoot,
    issuer,
    authEnv: issuer.appEnvs(),
    kafkaCredentials: localKafkaCredentials(),
    signingEnv: localSigningEnvs(),
  };
}

/**
 * What the bench keeps of each app's output: enough for the error of a failed start, not every line
 * of a ten-minute run. Kept whole, three apps' lines (one or more per order, one per shed request at
 * overload) took this process, the load generator, to 786 MB in a full run (560 MB with the cap):
 * strings its garbage collector kept marking while it had sends to make on schedule.
 */
const KEPT_APP_OUTPUT_CHARS = 256 * 1024;

/** The services of a bench run, started on its infrastructure (its Postgres, Kafka, issuer, credentials and keys). */
export function benchServices(infrastructure: BenchInfrastructure): ServiceSet {
  return new ServiceSet({
    serverUrl: infrastructure.serverUrl,
    brokers: infrastructure.brokers,
    authEnv: infrastructure.authEnv,
    kafkaCredentials: infrastructure.kafkaCredentials,
    signingEnv: infrastructure.signingEnv,
    keptOutputChars: KEPT_APP_OUTPUT_CHARS,
  });
}

/**
 * Variables added to every app the end-to-end figure and the idle-memory figure start, from
 * BENCH_APP_ENV (a JSON object), to compare a setting in one run against the defaults in another:
 * e.g. '{"LOG_LEVEL":"warn"}' or '{"NODE_OPTIONS":"--max-old-space-size=96"}'. Empty by default.
 */
export function benchAppEnv(): Record<string, string> {
  // The apps run as deployed: shedding on (the test stack turns it off by default).
  const deployed = { LOAD_SHED_ENABLED: 'true' };
  const raw = process.env.BENCH_APP_ENV;
  if (!raw) return deployed;
  const parsed = JSON.parse(raw) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Object.values(parsed).some((value) => typeof value !== 'string'))
    throw new Error(`BENCH_APP_ENV must be a JSON object of strings, got ${raw}`);
  return { ...deployed, ...(parsed as Record<string, string>) };
}

export async function releaseInfrastructure(infrastructure: BenchInfrastructure): Promise<void> {
  await infrastructure.issuer.close();
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
