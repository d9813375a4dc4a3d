import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testInfrastructure, testIssuer } from '@test/fixtures';
import { findRepoRoot, freePort, serviceNamed, startGroupAtEnd } from '@tools/local-stack';

/** The ports an `npm start` of a test listens on, each free when chosen. */
export interface NpmStartPorts {
  postgres: number;
  orders: number;
  inventory: number;
  loyalty: number;
  issuer: number;
}

/** Where a test's `npm start` keeps its embedded Postgres and its issuer's state, by the test's unique `name`. */
export function npmStartPaths(name: string): { stateDir: string; issuerFile: string } {
  // Inside the repository (.local/ is git-ignored), not under the OS temp directory: run as root, the
  // server runs as another account, which must be able to enter every directory above its data.
  return {
    stateDir: join(findRepoRoot(), '.local', 'test-postgres', name),
    issuerFile: join(findRepoRoot(), '.local', 'test-issuers', `${name}.json`),
  };
}

/**
 * The environment of an `npm start` run by a test: its own ports and embedded Postgres (a port
 * nothing listens on, so the start script starts one in `stateDir`), the run's broker, and the
 * run's token issuer, written to `issuerFile` so the fixtures' tokens are its tokens. Ignores a
 * developer's .env: the apps run as the tests' own do. npm start's apps use their default consumer
 * groups, so on the run's broker those are moved to the end first, past the records earlier suites left.
 */
export async function npmStartEnv(paths: {
  stateDir: string;
  issuerFile: string;
}): Promise<{ env: NodeJS.ProcessEnv; ports: NpmStartPorts }> {
  const { brokers } = testInfrastructure();
  const ports: NpmStartPorts = {
    postgres: await freePort(),
    orders: await freePort(),
    inventory: await freePort(),
    loyalty: await freePort(),
    issuer: await freePort(),
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: `postgres://postgres@127.0.0.1:${ports.postgres}`,
    POSTGRES_LOCAL_DIR: paths.stateDir,
    KAFKA_BROKERS: brokers.join(','),
    HTTP_HOST: '127.0.0.1',
    ORDERS_PORT: String(ports.orders),
    INVENTORY_PORT: String(ports.inventory),
    LOYALTY_PORT: String(ports.loyalty),
    LOYALTY_BASE_URL: `http://127.0.0.1:${ports.loyalty}`,
    DEV_ISSUER_PORT: String(ports.issuer),
    DEV_ISSUER_FILE: paths.issuerFile,
  };
  mkdirSync(join(paths.issuerFile, '..'), { recursive: true });
  writeFileSync(paths.issuerFile, testIssuer().serialize(), { mode: 0o600 });
  for (const service of ['orders', 'inventory'] as const) {
    await startGroupAtEnd(brokers, service, [...serviceNamed(service).consumes]);
  }
  return { env, ports };
}
