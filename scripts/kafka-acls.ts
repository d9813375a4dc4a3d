// `npm run kafka:acls` (in an image: `node dist/scripts/kafka-acls.js`): creates every ACL of
// kafkaAclRules() on KAFKA_BROKERS, authenticating with KAFKA_SASL_* / KAFKA_TLS_* as the apps do.
// Compose's one-shot `kafka-setup` and the Kubernetes Job `kafka-acls` run this program, so the
// ACLs of every environment come from the one declaration (tools/local-stack/src/kafka/kafka-principals.ts)
// and cannot drift from it. It must authenticate as a super user (`admin`). Creating an ACL that
// exists changes nothing, so it is safe to run at every deployment.
//
// It waits for the brokers (a Job may start before them) until KAFKA_ACLS_TIMEOUT_MS (default
// 120000), but gives up at once on a refused password or a principal that may not create ACLs:
// waiting would not change either. Exit codes: 0 applied, 1 failed, 2 configuration missing.
import { ConfigValidationError, envDefault, loadDotEnv } from '@libs/config';
import { kafkaSecurityFromEnvironment, type KafkaSecurity } from '@libs/kafka';
import { applyKafkaAcls, kafkaAclRules, parseCommandLine } from '@tools/local-stack';
import { kafkaAclsEnv } from './kafka-acls.env.js';
parseCommandLine({
  name: 'kafka:acls',
  usage: 'npm run kafka:acls --',
  summary:
    'Creates every ACL of kafkaAclRules() on KAFKA_BROKERS as a super user (KAFKA_SASL_* / KAFKA_TLS_*); waits for the brokers up to KAFKA_ACLS_TIMEOUT_MS.',
  flags: {},
});

const DEFAULT_TIMEOUT_MS = Number(envDefault(kafkaAclsEnv.KAFKA_ACLS_TIMEOUT_MS));
const RETRY_INTERVAL_MS = 2_000;

const log = (line: string) => process.stdout.write(`[kafka-acls] ${line}\n`);

interface Settings {
  brokers: string[];
  security: KafkaSecurity;
  timeoutMs: number;
}

function settingsFromEnvironment(env: NodeJS.ProcessEnv): Settings {
  const problems: string[] = [];
  const brokers = (env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker !== '');
  if (brokers.length === 0) problems.push('KAFKA_BROKERS is required (host:port, comma-separated)');
  // The anonymous principal may create no ACL where they are enforced: without credentials this
  // would only fail later, with an authorization error instead of the variable's name.
  if (!env.KAFKA_SASL_MECHANISM && !env.KAFKA_TLS_CERT_FILE) {
    problems.push('KAFKA_SASL_MECHANISM is required (or a client certificate, KAFKA_TLS_CERT_FILE): the ACLs are created as a super user');
  }
  const timeout = env.KAFKA_ACLS_TIMEOUT_MS ?? '';
  const timeoutMs = timeout === '' ? DEFAULT_TIMEOUT_MS : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    problems.push(`KAFKA_ACLS_TIMEOUT_MS must be a whole number of milliseconds, got "${timeout}"`);
  let security: KafkaSecurity = {};
  try {
    security = kafkaSecurityFromEnvironment(env);
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return { brokers, security, timeoutMs };
}

/** A refused password or a missing permission: no retry fixes either. */
function isPermanent(error: unknown): boolean {
  for (let cause = error as { name?: string; type?: string; cause?: unknown } | undefined; cause; cause = cause.cause as typeof cause) {
    if (cause.name === 'KafkaJSSASLAuthenticationError') return true;
    if (typeof cause.type === 'string' && /AUTHORIZATION_FAILED|SECURITY_DISABLED|SASL_AUTHENTICATION_FAILED/.test(cause.type)) return true;
  }
  return false;
}

async function applyUntilDeadline({ brokers, security, timeoutMs }: Settings): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        applyKafkaAcls(brokers, security),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), Math.max(0, deadline - Date.now()));
        }),
      ]);
    } catch (error) {
      const message = (error as Error).message;
      if (isPermanent(error)) throw new Error(`${message} (not retried: the credentials or their permissions are wrong)`);
      if (Date.now() + RETRY_INTERVAL_MS >= deadline) throw new Error(`gave up after ${attempt} attempt(s) in ${timeoutMs} ms: ${message}`);
      log(`attempt ${attempt}: ${message}; retrying in ${RETRY_INTERVAL_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_INTERVAL_MS));
    } finally {
      clearTimeout(timer);
    }
  }
}

async function main(): Promise<number> {
  loadDotEnv();
  let settings: Settings;
  try {
    settings = settingsFromEnvironment(process.env);
  } catch (error) {
    process.stderr.write(`[kafka-acls] ERROR: ${(error as Error).message}\n`);
    return 2;
  }
  log(
    `applying ${kafkaAclRules().length} ACL rules to ${settings.brokers.join(',')} as ${process.env.KAFKA_SASL_USERNAME || 'its client certificate'}`,
  );
  try {
    log(`applied ${await applyUntilDeadline(settings)} ACL entries`);
    return 0;
  } catch (error) {
    process.stderr.write(`[kafka-acls] ERROR: ${(error as Error).message}\n`);
    return 1;
  }
}

// Exit, not return: kafkajs may still hold sockets and retry timers of an attempt that was cut short.
process.exit(await main());
