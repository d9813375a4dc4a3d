import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getOrder, jsonLines, placeOrder, PrivateKafka, seedPrices, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';

const { serverUrl } = testInfrastructure();
/** How long the broker stays down while the apps start: longer than any client retry budget (about 17 s). */
const BROKER_DOWN_MS = 60_000;
/** How long the broker goes down once the apps run: past the clients' retry budget, so their consumers crash. */
const AFTER_START_DOWN_MS = 30_000;
/** Time between two looks at the apps while the broker is down. */
const LOOK_EVERY_MS = 1000;

/** `GET /health` of `app`: its status and body, or undefined while nothing listens on its port. */
async function health(app: ServiceProcess): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  const response = await fetch(`${app.baseUrl}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
  if (!response) return undefined;
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * A process started while its broker is down waits for it however long it takes: it stays up,
 * its port answers "starting" and names what it waits for, and it serves once the broker is back.
 * A private broker (stopping the shared one would break every other test); orders and inventory
 * wait through the same outage. Loyalty has no Kafka: its start waits for the database alone.
 * Then the broker goes down once more, after start-up, for longer than the clients retry: the
 * consumers that crash meanwhile are restarted, and the next order completes.
 */
describe('orders and inventory started while their broker is down (private broker, real processes)', () => {
  const services = new TestServices();
  let broker: PrivateKafka;
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let ordersDatabase: string;

  beforeAll(async () => {
    broker = await PrivateKafka.start();
    await broker.pause();
    ordersDatabase = await services.createDatabase('broker_down_orders');
    const inventoryDatabase = await services.createDatabase('broker_down_inventory');
    orders = await services.start({ service: 'orders', database: ordersDatabase, brokers: broker.brokers, awaitHealthy: false });
    inventory = await services.start({
      service: 'inventory',
      database: inventoryDatabase,
      brokers: broker.brokers,
      // Nothing reaches loyalty in this test; inventory only needs a valid URL to start.
      env: { LOYALTY_BASE_URL: 'http://127.0.0.1:9' },
      awaitHealthy: false,
    });
  }, 180_000);

  afterAll(async () => {
    await services.tearDown();
    await broker?.destroy();
  });

  it('when the broker stays down for 60 s, then neither exits and both answer 503 HEALTH.STARTING waiting for kafka; once it is up, an order completes', async () => {
    const apps = [orders, inventory];
    // The hold is a wait with a deadline on what the apps show: every look records what differs
    // from "alive, and once its port answered, answering 503 starting, waiting for kafka".
    const answered = new Set<ServiceProcess>();
    const lastWaitingFor = new Map<string, unknown>();
    const departures: unknown[] = [];
    const downUntil = Date.now() + BROKER_DOWN_MS;
    await waitFor(
      async () => {
        for (const app of apps) {
          if (!app.process.isRunning) departures.push({ app: app.name, exited: app.process.logs.slice(-2000) });
          const answer = await health(app);
          if (answer === undefined && !answered.has(app)) continue;
          answered.add(app);
          const seen = { app: app.name, status: answer?.status, code: answer?.body.code, waitingFor: answer?.body.waitingFor };
          // Kafka is listed all along; the database only until its first try answered.
          const waitsForKafka = Array.isArray(seen.waitingFor) && seen.waitingFor.includes('kafka');
          if (seen.status !== 503 || seen.code !== 'HEALTH.STARTING' || !waitsForKafka) departures.push(seen);
          lastWaitingFor.set(app.name, seen.waitingFor);
          const live = await fetch(`${app.baseUrl}/health/live`).catch((error: Error) => error);
          if (live instanceof Error || live.status !== 200)
            departures.push({ app: app.name, live: live instanceof Error ? live.message : live.status });
        }
        return Date.now() >= downUntil;
      },
      { timeoutMs: BROKER_DOWN_MS + 60_000, intervalMs: LOOK_EVERY_MS, description: `${BROKER_DOWN_MS} ms of the broker down` },
    );
    expect(departures).toEqual([]);
    expect(Object.fromEntries(lastWaitingFor)).toEqual({ [orders.name]: ['kafka'], [inventory.name]: ['kafka'] });
    // The wait is said in the log every few seconds, naming Kafka.
    for (const app of apps) {
      const waiting = jsonLines(app.process.logs).filter((line) => String(line.msg).startsWith('starting: waiting for kafka'));
      expect({ app: app.name, logged: waiting.length >= 5 }).toEqual({ app: app.name, logged: true });
    }

    await broker.resume();
    for (const app of apps) {
      await waitFor(async () => (await health(app))?.status === 200, {
        timeoutMs: 120_000,
        intervalMs: 200,
        description: `${app.name} to answer /health 200 once the broker is back`,
      });
      expect(app.process.isRunning).toBe(true);
    }

    const sku = uniqueSku('SKU-BROKER-DOWN');
    await seedPrices(serverUrl, ordersDatabase, { [sku]: 250 });
    await setStock(inventory.baseUrl, sku, 3);
    const customerId = uniqueName('broker-down-customer');
    const order = await placeOrder(orders.baseUrl, { customerId, items: [{ sku, quantity: 2 }] });
    const reserved = await waitFor(
      async () => {
        const { body } = await getOrder(orders.baseUrl, order.id, customerId);
        return body.status === 'RESERVED' && body;
      },
      { timeoutMs: 60_000, description: `order ${order.id} to be RESERVED` },
    );
    expect(reserved.status).toBe('RESERVED');
  }, 420_000);

  it('when the broker goes down again after start-up for longer than the clients retry, then neither exits, and once it is back the next order completes', async () => {
    await broker.pause();
    // Past the clients' retry budget (about 17 s): their consumers crash and must be restarted, not given up on.
    const downUntil = Date.now() + AFTER_START_DOWN_MS;
    const exited = await waitFor(() => [orders, inventory].find((app) => !app.process.isRunning) ?? Date.now() >= downUntil, {
      timeoutMs: AFTER_START_DOWN_MS + 30_000,
      intervalMs: LOOK_EVERY_MS,
      description: `${AFTER_START_DOWN_MS} ms of the broker down after start-up`,
    });
    expect(exited).toBe(true);
    await broker.resume();

    const sku = uniqueSku('SKU-BROKER-BACK');
    await seedPrices(serverUrl, ordersDatabase, { [sku]: 120 });
    await setStock(inventory.baseUrl, sku, 1);
    const customerId = uniqueName('broker-back-customer');
    const order = await placeOrder(orders.baseUrl, { customerId, items: [{ sku, quantity: 1 }] });
    const reserved = await waitFor(
      async () => {
        const { body } = await getOrder(orders.baseUrl, order.id, customerId);
        return body.status === 'RESERVED' && body;
      },
      { timeoutMs: 120_000, description: `order ${order.id} to be RESERVED after the second outage` },
    );
    expect(reserved.status).toBe('RESERVED');
    expect([orders.process.isRunning, inventory.process.isRunning]).toEqual([true, true]);
  }, 300_000);
});

/** A refused credential is not worth waiting for: the process says which variable to fix, and exits. */
describe('orders started with a wrong Kafka password (shared broker, real process)', () => {
  const services = new TestServices();

  afterAll(() => services.tearDown());

  it('when the broker refuses its SASL password, then it exits non-zero at its first try, naming KAFKA_SASL_PASSWORD and not the password', async () => {
    const wrong = uniqueName('not-the-password');
    const orders = await services.start({
      service: 'orders',
      database: await services.createDatabase('wrong_sasl_password'),
      env: { KAFKA_SASL_PASSWORD: wrong },
      awaitHealthy: false,
    });
    const exit = await orders.process.waitForExit(60_000);
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 1, signal: null });
    expect(orders.process.logs).toMatch(/- KAFKA_SASL_PASSWORD: the broker refused the credentials of KAFKA_SASL_USERNAME/);
    expect(orders.process.logs).not.toContain(wrong);
    // Refused at the first try: no "still waiting" line came before the exit.
    expect(orders.process.logs).not.toContain('starting: waiting for');
  });
});
