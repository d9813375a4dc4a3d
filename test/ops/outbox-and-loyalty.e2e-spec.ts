import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listAccruals, placeOrder, seedPrices, TestServices } from '@test/fixtures';
import { migrateServiceDatabase, queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { runOps } from '../support/run-ops.js';

/**
 * `npm run ops -- outbox pending` and `loyalty parked / retry` against real databases and real
 * service processes: what the tool prints is what the tables hold, and a retried command really
 * reaches loyalty once.
 */
describe('npm run ops -- outbox and loyalty (real Postgres, real processes)', () => {
  const services = new TestServices();
  const { infrastructure } = services;
  const sql = (database: string, text: string, params: unknown[] = []) =>
    queryTestDatabase<Record<string, any>>(infrastructure.serverUrl, database, text, params);

  describe('outbox pending', () => {
    let orders: ServiceProcess;
    let ordersDatabase: string;
    let inventoryDatabase: string;

    beforeAll(async () => {
      ordersDatabase = await services.createDatabase('ops_outbox_orders');
      inventoryDatabase = await services.createDatabase('ops_outbox_inventory');
      // No relay: the order's event stays pending, as when Kafka refuses every publish.
      orders = await services.start({ service: 'orders', database: ordersDatabase, env: { OUTBOX_RELAY_ENABLED: 'false' } });
    });

    it('when an event cannot be published, then outbox pending lists it with its attempts and last error', async () => {
      const sku = uniqueSku('OPS');
      await seedPrices(infrastructure.serverUrl, ordersDatabase, { [sku]: 100 });
      const order = await placeOrder(orders.baseUrl, {
        customerId: uniqueName('ops-customer'),
        items: [{ sku, quantity: 1 }],
      });
      // What the relay records after failed publishes (the relay is off here, so the test writes it).
      await sql(
        ordersDatabase,
        "UPDATE outbox_messages SET attempts = 3, last_error = 'KafkaJSNumberOfRetriesExceeded: broker down' WHERE aggregate_id = $1",
        [order.id],
      );
      const [row] = await sql(ordersDatabase, 'SELECT id FROM outbox_messages WHERE aggregate_id = $1', [order.id]);

      const run = await runOps(infrastructure, ['outbox', 'pending', '--service', 'orders', '--database', ordersDatabase]);

      expect(run).toMatchObject({ code: 0 });
      expect(run.stdout).toContain('orders: 1 pending outbox row(s)');
      expect(run.stdout).toContain(`${row.id} OrderCreated ${order.id} -> orders.order.v1`);
      expect(run.stdout).toMatch(/age \d+ s, 3 attempt\(s\), next /);
      expect(run.stdout).toContain('last_error: KafkaJSNumberOfRetriesExceeded: broker down');
    });

    it('when a service has nothing pending, then outbox pending says 0', async () => {
      await migrateServiceDatabase('inventory', infrastructure.serverUrl, inventoryDatabase);
      const run = await runOps(infrastructure, ['outbox', 'pending', '--service', 'inventory', '--database', inventoryDatabase]);
      expect(run).toMatchObject({ code: 0, stdout: 'inventory: 0 pending outbox row(s)\n' });
    });

    it('when --service names no outbox service, then ops refuses with exit code 2', async () => {
      const run = await runOps(infrastructure, ['outbox', 'pending', '--service', 'loyalty']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--service must be orders or inventory');
    });
  });

  describe('loyalty parked and retry', () => {
    let loyalty: ServiceProcess;
    let inventoryDatabase: string;
    const customerId = uniqueName('ops-loyal');
    const orderId = randomUUID();
    const commandId = `loyalty-accrual:${orderId}`;

    beforeAll(async () => {
      const started = await startInventoryWithLoyalty(services, 'ops_loyalty');
      loyalty = started.loyalty;
      inventoryDatabase = started.databases.inventory;
      // A command loyalty refused earlier (as after a 4xx while a partner-side bug was live).
      await sql(
        inventoryDatabase,
        `INSERT INTO loyalty_commands (id, path, body, status, attempts, last_error)
         VALUES ($1, '/accruals', $2, 'PARKED', 1, 'HTTP 400 from loyalty: customerId rejected')`,
        [commandId, JSON.stringify({ customerId, orderId, points: 12 })],
      );
    });

    it('when loyalty parked runs, then it lists the parked command with its last error', async () => {
      const run = await runOps(infrastructure, ['loyalty', 'parked', '--database', inventoryDatabase]);
      expect(run).toMatchObject({ code: 0 });
      expect(run.stdout).toContain('1 parked loyalty command(s)');
      expect(run.stdout).toContain(`${commandId} customer ${customerId}, order ${orderId}, 12 point(s), 1 attempt(s)`);
      expect(run.stdout).toContain('last_error: HTTP 400 from loyalty: customerId rejected');
    });

    it('when loyalty retry names a command that is not parked, then it says so and exits 1', async () => {
      const run = await runOps(infrastructure, ['loyalty', 'retry', 'loyalty-accrual:no-such-command', '--database', inventoryDatabase]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('not parked: loyalty-accrual:no-such-command');
    });

    it('when loyalty retry queues the command, then the dispatcher sends it and loyalty credits it once', async () => {
      const run = await runOps(infrastructure, ['loyalty', 'retry', commandId, '--database', inventoryDatabase]);
      expect(run).toMatchObject({ code: 0 });
      expect(run.stdout).toContain(`queued ${commandId}`);

      await waitFor(
        async () => (await sql(inventoryDatabase, 'SELECT status FROM loyalty_commands WHERE id = $1', [commandId]))[0]?.status === 'DONE',
        {
          timeoutMs: 60_000,
          description: `${commandId} to be DONE`,
        },
      );
      const { body } = await listAccruals(loyalty.baseUrl, customerId);
      expect(body).toMatchObject({ totalPoints: 12, items: [{ orderId, points: 12 }] });
      const after = await runOps(infrastructure, ['loyalty', 'parked', '--database', inventoryDatabase]);
      expect(after.stdout).toContain('0 parked loyalty command(s)');
    });
  });

  afterAll(() => services.tearDown());
});
