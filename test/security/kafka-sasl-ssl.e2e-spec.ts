import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kafka, logLevel } from 'kafkajs';
import { readFileSync } from 'node:fs';
import { Topics } from '@libs/contracts';
import { createKafka } from '@libs/kafka';
import { getOrder, placeOrder, SaslSslKafka, type ScramUser, seedPrices, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';

/**
 * The loop over a broker that only speaks SASL_SSL. Orders (SCRAM-SHA-512) and
 * inventory (SCRAM-SHA-256) run as real processes with `KAFKA_SASL_*` and `KAFKA_TLS_*`, trusting
 * the CA the fixture generated; the test's own tooling (topic and group setup) reads the same
 * variables from its environment. A client without credentials, or with a wrong password, is refused.
 */
const USERS: Record<'orders' | 'inventory' | 'tools', ScramUser> = {
  orders: { mechanism: 'SCRAM-SHA-512', name: 'orders', password: 'orders-secret' },
  inventory: { mechanism: 'SCRAM-SHA-256', name: 'inventory', password: 'inventory-secret' },
  tools: { mechanism: 'SCRAM-SHA-512', name: 'tools', password: 'tools-secret' },
};
const SKU = uniqueSku('SASL');

function securityEnv(user: ScramUser, caFile: string): Record<string, string> {
  return {
    KAFKA_SASL_MECHANISM: user.mechanism.toLowerCase(),
    KAFKA_SASL_USERNAME: user.name,
    KAFKA_SASL_PASSWORD: user.password,
    KAFKA_TLS_ENABLED: 'true',
    KAFKA_TLS_CA_FILE: caFile,
  };
}

describe('Kafka over SASL_SSL (SCRAM users, TLS with a generated CA)', () => {
  let broker: SaslSslKafka;
  let services: TestServices;
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let ordersDatabase: string;
  const toolEnv: string[] = [];

  beforeAll(async () => {
    broker = await SaslSslKafka.start(Object.values(USERS));
    // The jest process's own clients (group positioning, clean-up) connect as the tools user.
    for (const [name, value] of Object.entries(securityEnv(USERS.tools, broker.caFile))) {
      toolEnv.push(name);
      process.env[name] = value;
    }
    services = new TestServices({ ...testInfrastructure(), brokers: broker.brokers });
    const databases = { orders: await services.createDatabase('sasl_orders'), inventory: await services.createDatabase('sasl_inventory') };
    // Inventory first: it creates the topics orders publishes to and reads from.
    inventory = await services.start({
      service: 'inventory',
      database: databases.inventory,
      // No loyalty here: its commands stay pending, which this test does not look at.
      env: { ...securityEnv(USERS.inventory, broker.caFile), LOYALTY_BASE_URL: 'http://127.0.0.1:9' },
    });
    ordersDatabase = databases.orders;
    orders = await services.start({ service: 'orders', database: databases.orders, env: securityEnv(USERS.orders, broker.caFile) });
  }, 240_000);

  afterAll(async () => {
    await services?.tearDown();
    await broker?.stop();
    for (const name of toolEnv) delete process.env[name];
  });

  it('when an order is placed, then it travels orders -> inventory -> orders over SASL_SSL and is reserved', async () => {
    await setStock(inventory.baseUrl, SKU, 5);
    await seedPrices(testInfrastructure().serverUrl, ordersDatabase, { [SKU]: 100 });
    const customerId = uniqueName('sasl-customer');
    const order = await placeOrder(orders.baseUrl, { customerId, items: [{ sku: SKU, quantity: 2 }] });
    const settled = await waitFor(
      async () => {
        const { body } = await getOrder(orders.baseUrl, order.id, customerId);
        return body.status === 'PENDING' ? undefined : body.status;
      },
      { timeoutMs: 90_000, description: `order ${order.id} to leave PENDING` },
    );
    expect(settled).toBe('RESERVED');
  }, 120_000);

  it('when a client brings no credentials, a wrong password or no TLS, then the broker refuses it', async () => {
    const ca = [readFileSync(broker.caFile)];
    const attempt = async (options: ConstructorParameters<typeof Kafka>[0]) => {
      const admin = new Kafka({ ...options, logLevel: logLevel.NOTHING, connectionTimeout: 3000, retry: { retries: 0 } }).admin();
      try {
        await admin.connect();
        await admin.listTopics();
        return 'accepted';
      } catch (error) {
        return (error as Error).name;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    };
    const base = { clientId: uniqueName('test-refused'), brokers: broker.brokers };
    expect(await attempt({ ...base, ssl: { ca } })).not.toBe('accepted');
    expect(await attempt({ ...base, ssl: { ca }, sasl: { mechanism: 'scram-sha-512', username: 'orders', password: 'wrong' } })).toBe(
      'KafkaJSSASLAuthenticationError',
    );
    expect(await attempt(base)).not.toBe('accepted');
    // The same client with the right user: the refusals above are about credentials, not the broker.
    expect(await attempt({ ...base, ssl: { ca }, sasl: { mechanism: 'scram-sha-512', username: 'tools', password: 'tools-secret' } })).toBe(
      'accepted',
    );
    // createKafka without explicit security reads KAFKA_SASL_* and KAFKA_TLS_* from the environment.
    const admin = createKafka({ brokers: broker.brokers, clientId: uniqueName('test-env-client') }).admin();
    await admin.connect();
    expect(await admin.listTopics()).toEqual(expect.arrayContaining([Topics.orders]));
    await admin.disconnect();
  }, 60_000);
});
