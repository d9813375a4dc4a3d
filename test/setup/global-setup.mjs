import { join } from 'node:path';
import { localStack } from './local-stack.mjs';

/**
 * Brings up what the tests need: Postgres is used at DATABASE_URL when it answers, else started as
 * `npm start` does (the embedded server, only for a URL of the local default shape); Kafka
 * is started when none answers (docker compose, else the local broker script), with SASL, ACLs
 * and signed envelopes as `npm start` runs it; a token issuer is started for the run. Remembers what it started so the teardown stops exactly that.
 */
export default async function globalSetup() {
  const env = localStack.localEnvironment();
  process.env.DATABASE_URL = env.DATABASE_URL;
  process.env.KAFKA_BROKERS = env.KAFKA_BROKERS;
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  // Every client of the run (probes, recorders, in-process apps, fixtures) authenticates as the
  // local brokers' `admin` user and verifies with every local producer's public key (made here on
  // first use); each service process started by test/fixtures authenticates as its own principal
  // and gets only its own signing key (tools/local-stack ServiceProcess), and test/fixtures/kafka
  // signs a record with the key of its topic's producer.
  Object.assign(process.env, localStack.localToolingEnv());
  const root = localStack.findRepoRoot();
  globalThis.__postgres = await localStack.ensurePostgres(env.DATABASE_URL, root, (message) =>
    console.log(`\n[test setup] Postgres: ${message}`),
  );
  // A broker the tests start keeps its data apart from npm start's and begins empty every run
  // (beside the script's state: KAFKA_LOCAL_DIR moves both, for a second run on other ports).
  const source = await localStack.ensureKafka(env.KAFKA_BROKERS.split(','), root, {
    localDataDir: join(process.env.KAFKA_LOCAL_DIR || join(root, '.local/kafka'), 'test-data'),
    freshLocalData: true,
  });
  globalThis.__kafkaSource = source;
  await localStack.waitForGroupCoordinator(env.KAFKA_BROKERS.split(','));
  // A token issuer of this run only (a fresh key pair in memory): every app a test starts trusts it
  // (each app's AUTH_* from test/fixtures/processes testAuthEnv), and test/fixtures/auth signs tokens
  // with its key; its key and address reach the test files through the environment.
  const issuer = await localStack.DevIssuer.create();
  globalThis.__testIssuer = issuer;
  const issuerUrl = await issuer.listen(0, '127.0.0.1');
  Object.assign(process.env, { TEST_AUTH_ISSUER_STATE: issuer.serialize(), TEST_AUTH_ISSUER_URL: issuerUrl });
  console.log(
    `\n[test setup] Postgres at ${localStack.printableUrl(env.DATABASE_URL)} (${globalThis.__postgres.source}); Kafka at ${env.KAFKA_BROKERS} (${source}); token issuer at ${issuer.jwksUrl}`,
  );
}
