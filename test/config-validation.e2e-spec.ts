import { describe, expect, it } from '@jest/globals';
import { testAuthEnv, testInfrastructure } from '@test/fixtures';
import { compiledEntry, findRepoRoot, kafkaSaslEnv, localKafkaCredentials, NodeProcess, type ServiceName } from '@tools/local-stack';

interface Case {
  service: ServiceName;
  /** Set on purpose to values the schema must reject. */
  malformed: Record<string, string>;
  /** Required by the schema and left out of the environment on purpose. */
  missing: string[];
}

// Every required variable is left out and two are malformed, so the test proves the app reports
// ALL problems in one go, not just the first it meets. No app starts without knowing whose tokens
// to trust (AUTH_*), and inventory without its own credentials for loyalty (AUTH_CLIENT_*).
const AUTH = ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL'];
const cases: Case[] = [
  { service: 'orders', malformed: { ORDERS_PORT: 'abc', DATABASE_POOL_SIZE: '0' }, missing: ['DATABASE_URL', 'KAFKA_BROKERS', ...AUTH] },
  {
    service: 'inventory',
    malformed: { INVENTORY_PORT: 'abc', DATABASE_POOL_SIZE: '0' },
    missing: [
      'DATABASE_URL',
      'KAFKA_BROKERS',
      'LOYALTY_BASE_URL',
      ...AUTH,
      'AUTH_CLIENT_TOKEN_URL',
      'AUTH_CLIENT_ID',
      'AUTH_CLIENT_SECRET',
    ],
  },
  { service: 'loyalty', malformed: { LOYALTY_PORT: 'abc', DATABASE_POOL_SIZE: '0' }, missing: ['DATABASE_URL', ...AUTH] },
];

/** Runs the compiled server with exactly `env` (plus PATH); resolves when it exits or is killed. */
function runServer(service: ServiceName, env: Record<string, string>, timeoutMs: number) {
  return NodeProcess.outcome({
    entry: compiledEntry(service, 'main'),
    cwd: findRepoRoot(),
    env: { PATH: process.env.PATH, ...env },
    // A server that wrongly accepted this configuration would run forever: kill it, and the
    // assertions below then fail on the signal instead of the test timing out.
    timeoutMs,
  });
}

describe('configuration validation at start-up', () => {
  it.each(cases)(
    'when $service starts without its required variables and with malformed ones, then it exits non-zero naming each',
    async ({ service, malformed, missing }) => {
      const { code, signal, stderr } = await runServer(service, malformed, 30_000);

      expect({ signal, exitedNonZero: code !== null && code !== 0 }).toEqual({ signal: null, exitedNonZero: true });
      // One line per problem (`  - NAME ...`), so a name merely quoted in another message does not count.
      const reported = [...stderr.matchAll(/^\s+- ([A-Z][A-Z0-9_]*) /gm)].map((match) => match[1]);
      expect(reported.sort()).toEqual([...missing, ...Object.keys(malformed)].sort());
    },
  );

  it.each(['orders', 'inventory', 'loyalty'] as const)(
    'when %s gets a DATABASE_URL with a password that does not parse, then it exits non-zero naming DATABASE_URL without printing the password',
    async (service) => {
      const { code, stderr } = await runServer(
        service,
        { DATABASE_URL: 'postgres://app:s3cret-pw@db:99999', KAFKA_BROKERS: '127.0.0.1:1', LOYALTY_BASE_URL: 'http://127.0.0.1:1' },
        30_000,
      );
      expect(code !== null && code !== 0).toBe(true);
      expect(stderr).toMatch(/- DATABASE_URL /);
      expect(stderr).not.toContain('s3cret-pw');
    },
  );

  it.each(['orders', 'inventory'] as const)(
    'when %s would forget message ids before Kafka forgets the messages (INBOX_RETENTION_MS below the topic retention.ms), then it refuses to start, naming both values',
    async (service) => {
      const { serverUrl, brokers } = testInfrastructure();
      // The test broker keeps records for the broker default (7 days); the inbox here, one minute.
      const { code, signal, stderr } = await runServer(
        service,
        {
          ...testAuthEnv(service),
          // The broker requires SASL: the service connects as its own principal, so the retention check runs.
          ...kafkaSaslEnv(localKafkaCredentials(), service),
          DATABASE_URL: serverUrl,
          KAFKA_BROKERS: brokers.join(','),
          LOYALTY_BASE_URL: 'http://127.0.0.1:1',
          INBOX_RETENTION_MS: '60000',
        },
        60_000,
      );
      expect({ signal, exitedNonZero: code !== null && code !== 0 }).toEqual({ signal: null, exitedNonZero: true });
      expect(stderr).toContain('INBOX_RETENTION_MS=60000');
      expect(stderr).toMatch(/retention\.ms=\d{6,}/);
    },
  );

  it.each(['orders', 'inventory', 'loyalty'] as const)(
    'when %s gets FAILPOINTS outside a test launcher (no FAILPOINTS_ENABLED=true, NODE_ENV=production), then it refuses to start, naming what is missing',
    async (service) => {
      const { code, signal, stderr } = await runServer(
        service,
        { FAILPOINTS: 'relay.after-claim-before-publish', NODE_ENV: 'production', LOYALTY_BASE_URL: 'http://127.0.0.1:1' },
        30_000,
      );
      expect({ signal, exitedNonZero: code !== null && code !== 0 }).toEqual({ signal: null, exitedNonZero: true });
      expect(stderr).toContain('FAILPOINTS is set');
      expect(stderr).toContain('FAILPOINTS_ENABLED=true and NODE_ENV=test');
    },
  );
});
