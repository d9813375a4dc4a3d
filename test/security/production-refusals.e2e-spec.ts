import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { newSigningKeyPair, signingKeyEnv, verifyKeyEntry } from '@libs/envelope';
import { compiledEntry, findRepoRoot, freePort, NodeProcess, type ServiceName } from '@tools/local-stack';

/**
 * Under NODE_ENV=production an app must not start with what is only fit for a laptop (the
 * development issuer's tokens over plain http, Postgres or Kafka in clear, every interface bound,
 * no signing key), and must say so before its first connection: Kafka here is a closed port, so
 * only a check that runs first answers within the bound. The development issuer and `npm run
 * token` refuse production outright.
 */
const BOUND_MS = 10_000;
/** The producers' key pairs: each app signs with its own and verifies the other's. */
const keys = { orders: newSigningKeyPair('orders-prod-test'), inventory: newSigningKeyPair('inventory-prod-test') };

/** A production configuration with nothing insecure in it; each case spoils one variable. */
async function secureEnv(service: ServiceName): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://app@127.0.0.1:5432',
    DATABASE_SSL_MODE: 'require',
    AUTH_ISSUER: 'https://login.example.com/',
    AUTH_AUDIENCE: `${service}-api`,
    AUTH_JWKS_URL: 'https://login.example.com/.well-known/jwks.json',
    HTTP_HOST: '127.0.0.1',
  };
  if (service === 'loyalty') return env;
  return {
    ...env,
    // Nothing listens there: a process that connects before it checks would hang, not exit.
    KAFKA_BROKERS: `127.0.0.1:${await freePort()}`,
    KAFKA_TLS_ENABLED: 'true',
    KAFKA_SASL_MECHANISM: 'scram-sha-512',
    KAFKA_SASL_USERNAME: service,
    KAFKA_SASL_PASSWORD: 'not-a-real-password',
    MESSAGE_SIGNING_KEY: signingKeyEnv(keys[service]),
    MESSAGE_VERIFY_KEYS: service === 'orders' ? verifyKeyEntry('inventory', keys.inventory) : verifyKeyEntry('orders', keys.orders),
    ...(service === 'inventory' && {
      LOYALTY_BASE_URL: 'https://loyalty.example.com',
      AUTH_CLIENT_TOKEN_URL: 'https://login.example.com/oauth/token',
      AUTH_CLIENT_ID: 'inventory',
      AUTH_CLIENT_SECRET: 'not-a-real-secret',
    }),
  };
}

function run(entry: string, env: Record<string, string>, args: string[] = []) {
  return NodeProcess.outcome({
    entry,
    args,
    cwd: findRepoRoot(),
    env: { PATH: process.env.PATH, ...env },
    // Past the bound the process is killed: the assertions then fail on the signal.
    timeoutMs: BOUND_MS,
  });
}

const insecure: [string, string, Record<string, string>][] = [
  ['JWKS over plain http', 'AUTH_JWKS_URL', { AUTH_JWKS_URL: 'http://login.example.com/.well-known/jwks.json' }],
  ["the development issuer's name", 'AUTH_ISSUER', { AUTH_ISSUER: 'urn:local-stack:dev-issuer' }],
  ['Postgres without TLS', 'DATABASE_SSL_MODE', { DATABASE_SSL_MODE: 'disable' }],
  [
    'Kafka without TLS',
    'KAFKA_TLS_ENABLED',
    { KAFKA_TLS_ENABLED: 'false', KAFKA_SASL_MECHANISM: '', KAFKA_SASL_USERNAME: '', KAFKA_SASL_PASSWORD: '' },
  ],
  ['every interface bound', 'HTTP_HOST', { HTTP_HOST: '0.0.0.0' }],
  ['no signing key of its own', 'MESSAGE_SIGNING_KEY', { MESSAGE_SIGNING_KEY: '' }],
  ['no public keys to verify with', 'MESSAGE_VERIFY_KEYS', { MESSAGE_VERIFY_KEYS: '' }],
];

describe('NODE_ENV=production refuses what is only fit for a laptop, before any connection (Kafka unreachable)', () => {
  it.each(insecure)('when orders runs with %s, then it exits non-zero within 10 s naming %s', async (_what, variable, spoiled) => {
    const started = Date.now();
    const { code, signal, stderr } = await run(compiledEntry('orders', 'main'), { ...(await secureEnv('orders')), ...spoiled });
    expect({ signal, exitedNonZero: code !== null && code !== 0 }).toEqual({ signal: null, exitedNonZero: true });
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(stderr).toMatch(new RegExp(`^\\s+- ${variable}\\b`, 'm'));
  });

  it.each<ServiceName>(['inventory', 'loyalty'])(
    'when %s runs with every insecure setting it has, then one error names each',
    async (service) => {
      const spoiled = {
        AUTH_JWKS_URL: 'http://login.example.com/.well-known/jwks.json',
        AUTH_ISSUER: 'urn:local-stack:dev-issuer',
        DATABASE_SSL_MODE: 'disable',
        HTTP_HOST: '0.0.0.0',
        ...(service === 'inventory' && {
          KAFKA_TLS_ENABLED: 'false',
          KAFKA_SASL_MECHANISM: '',
          KAFKA_SASL_USERNAME: '',
          KAFKA_SASL_PASSWORD: '',
        }),
      };
      const { code, signal, stderr } = await run(compiledEntry(service, 'main'), { ...(await secureEnv(service)), ...spoiled });
      expect({ signal, exitedNonZero: code !== null && code !== 0 }).toEqual({ signal: null, exitedNonZero: true });
      const reported = [...stderr.matchAll(/^\s+- ([A-Z][A-Z0-9_]*)\b/gm)].map((match) => match[1]).sort();
      expect(reported).toEqual(
        Object.keys(spoiled)
          .filter((name) => !name.startsWith('KAFKA_SASL'))
          .sort(),
      );
    },
  );

  it('when an insecure setting is allowed by its opt-out, then the process goes on and logs that it is allowed', async () => {
    const env = {
      ...(await secureEnv('loyalty')),
      AUTH_JWKS_URL: 'http://login.example.com/.well-known/jwks.json',
      AUTH_JWKS_HTTP_ALLOWED: 'true',
    };
    // It goes on to its database, which refuses `app` (no such role) or TLS: whatever ends it, the warning came first.
    const { stdout, stderr } = await run(compiledEntry('loyalty', 'main'), env);
    expect(stdout + stderr).toContain(
      'AUTH_JWKS_URL uses http: anyone on the path can swap the keys and mint any token; allowed in production by AUTH_JWKS_HTTP_ALLOWED=true',
    );
    expect(stderr).not.toMatch(/Invalid configuration/);
  });
});

describe('the development issuer in production', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'dev-issuer-prod-'));
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

  it.each([
    ['npm run token', 'dist/scripts/token.js', ['--sub', 'c1']],
    ['the dev-issuer process', 'dist/scripts/dev-issuer.js', []],
  ])('when %s runs with NODE_ENV=production, then it exits non-zero saying why', async (_what, entry, args) => {
    const { code, signal, stdout, stderr } = await run(
      entry,
      { NODE_ENV: 'production', DEV_ISSUER_FILE: join(stateDir, 'issuer.json'), DEV_ISSUER_PORT: String(await freePort()) },
      args,
    );
    expect({ signal, exitedNonZero: code !== null && code !== 0 }).toEqual({ signal: null, exitedNonZero: true });
    expect(stderr).toContain('the development token issuer refuses to run with NODE_ENV=production');
    expect(stdout).not.toMatch(/eyJ/);
  });
});
