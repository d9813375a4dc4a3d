import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testIssuer, TestServices } from '@test/fixtures';
import { findRepoRoot, NodeProcess, type ServiceProcess, uniqueName } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';

/**
 * `npm run demo` (its narration must stay true as the code changes) against three real services, as `npm start` runs them but on
 * throw-away databases: every step happens, the crash window heals, well under two minutes. And
 * a step that cannot happen makes it exit non-zero.
 */
const demoEntry = join(process.env.TEST_DIST_DIR || join(findRepoRoot(), 'dist'), 'scripts', 'demo.js');
const portOf = (service: ServiceProcess) => new URL(service.baseUrl).port;

describe('npm run demo', () => {
  const services = new TestServices();
  let env: NodeJS.ProcessEnv;
  // The demo signs its tokens with the issuer of `npm start`, read from its state file: here the
  // run's test issuer, written where DEV_ISSUER_FILE points (git-ignored, removed after).
  const issuerFile = join(findRepoRoot(), '.local', 'test-issuers', `${uniqueName('demo')}.json`);

  beforeAll(async () => {
    const { inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'demo');
    const ordersDatabase = await services.createDatabase('demo_orders');
    const orders = await services.start({ service: 'orders', database: ordersDatabase });
    env = {
      PATH: process.env.PATH,
      DATABASE_URL: services.infrastructure.serverUrl,
      KAFKA_BROKERS: services.infrastructure.brokers.join(','),
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      ORDERS_PORT: portOf(orders),
      INVENTORY_PORT: portOf(inventory),
      LOYALTY_PORT: portOf(loyalty),
      ORDERS_DATABASE_NAME: ordersDatabase,
      INVENTORY_DATABASE_NAME: databases.inventory,
      LOYALTY_DATABASE_NAME: databases.loyalty,
      ...services.infrastructure.authEnv.orders,
      DEV_ISSUER_FILE: issuerFile,
    };
    mkdirSync(join(issuerFile, '..'), { recursive: true });
    writeFileSync(issuerFile, testIssuer().serialize(), { mode: 0o600 });
  });

  afterAll(async () => {
    rmSync(issuerFile, { force: true });
    await services.tearDown();
  });

  it('when the system runs, then every step is narrated, the crash window heals and it exits 0 within two minutes', async () => {
    const started = Date.now();
    const demo = new NodeProcess({ name: 'demo', entry: demoEntry, env, cwd: findRepoRoot() });
    const exit = await demo.waitForExit(150_000);
    expect({ exit, output: demo.logs }).toMatchObject({ exit: { code: 0 } });
    expect(Date.now() - started).toBeLessThan(120_000);
    for (const text of [
      'Outbox row',
      'Kafka record on orders.order.v1',
      'inbox_messages: consumer',
      'reservations: RESERVED',
      'loyalty-accrual:',
      'RESERVED',
      'process signal SIGKILL',
      'Idempotent-Replayed: true',
      'orders 1, OrderCreated events 1, reservations 1, accruals 1',
      'Demo complete',
    ]) {
      expect(demo.logs).toContain(text);
    }
    const traceIds = [...demo.logs.matchAll(/trace id ([0-9a-f]{32})/g)].map((match) => match[1]);
    expect(traceIds.length).toBeGreaterThanOrEqual(3);
    expect(new Set(traceIds).size).toBe(1);
  }, 180_000);

  it('when a service does not answer, then it says which step did not happen and exits 1', async () => {
    const demo = new NodeProcess({ name: 'demo', entry: demoEntry, env: { ...env, LOYALTY_PORT: '9' }, cwd: findRepoRoot() });
    const exit = await demo.waitForExit(60_000);
    expect(exit.code).toBe(1);
    expect(demo.logs).toMatch(/DEMO FAILED at step 1: loyalty at http:\/\/127\.0\.0\.1:9\/health to answer 200/);
  });
});
