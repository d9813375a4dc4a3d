import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { eventRecord, orderCreatedPayload, publishRecords, scrapeMetric, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { queryTestDatabase, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { CountingProxy } from '../support/counting-proxy.js';
import { FAST_LOYALTY_DISPATCH, LOYALTY_LAYER_SETTINGS } from '../support/inventory-with-loyalty.js';

/**
 * Every inventory replica runs a loyalty dispatcher. Two replicas on one
 * database, one loyalty behind a counting proxy, no faults: loyalty must see each command exactly
 * once. Before commands were claimed, both replicas read the same due rows and sent them twice
 * (answered `Idempotent-Replayed`: harmless for the points, but double the calls, and a late 4xx
 * could overwrite a DONE).
 */
const { serverUrl, brokers } = testInfrastructure();
const SKU = uniqueSku('REPLICAS');
const ORDERS = 300;

describe.each(LOYALTY_LAYER_SETTINGS)('loyalty dispatch with two inventory replicas (real processes), $name', ({ env: layerEnv }) => {
  const services = new TestServices();
  let proxy: CountingProxy;
  let replicas: ServiceProcess[];
  let database: string;
  const sql = (text: string, params: unknown[] = []) => queryTestDatabase(serverUrl, database, text, params);

  beforeAll(async () => {
    const loyaltyDatabase = await services.createDatabase('replicas_loyalty');
    database = await services.createDatabase('replicas_inventory');
    const loyalty = await services.start({ service: 'loyalty', database: loyaltyDatabase });
    proxy = await CountingProxy.start(loyalty.baseUrl);
    const env = {
      LOYALTY_BASE_URL: proxy.url,
      ...FAST_LOYALTY_DISPATCH,
      // Small batches and several calls at once: many claims race between the two replicas.
      LOYALTY_DISPATCH_BATCH_SIZE: '10',
      LOYALTY_DISPATCH_CONCURRENCY: '4',
      OUTBOX_RELAY_ENABLED: 'false',
      ...layerEnv,
    };
    const first = await services.start({ service: 'inventory', name: 'inventory-1', database, env });
    // One consumer group, as replicas of one deployment: each consumes some partitions.
    const second = await services.start({
      service: 'inventory',
      name: 'inventory-2',
      database,
      env: { ...env, KAFKA_CONSUMER_GROUP: first.consumerGroups[0] },
    });
    replicas = [first, second];
    await setStock(first.baseUrl, SKU, ORDERS * 2);
  });

  afterAll(async () => {
    await services.tearDown();
    await proxy?.stop();
  });

  it(`when ${ORDERS} orders are reserved by two replicas, then loyalty is called once per command, with no replayed answer, and every command is DONE after one attempt`, async () => {
    const orders = Array.from({ length: ORDERS }, () =>
      orderCreatedPayload(uniqueName('replica-customer'), [{ sku: SKU, quantity: 1, unitPriceCents: 1500 }]),
    );
    await publishRecords(
      brokers,
      Topics.orders,
      orders.map((order) => eventRecord(Topics.orders, 'OrderCreated', order)),
    );

    const statuses = await waitFor(
      async () => {
        const rows = await sql('SELECT status, count(*)::int AS n FROM loyalty_commands GROUP BY status');
        return rows.length === 1 && rows[0].status === 'DONE' && rows[0].n === ORDERS ? rows : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, description: `${ORDERS} loyalty commands DONE` },
    );
    expect(statuses).toEqual([{ status: 'DONE', n: ORDERS }]);
    expect(await sql('SELECT attempts, count(*)::int AS n FROM loyalty_commands GROUP BY attempts')).toEqual([{ attempts: 1, n: ORDERS }]);
    expect(proxy.keysCalledMoreThanOnce()).toEqual([]);
    expect(proxy.replayed).toBe(0);
    expect(proxy.callsPerKey.size).toBe(ORDERS);
    // Both replicas dispatched, or the test proved nothing about replicas racing for commands.
    const donePerReplica = await Promise.all(replicas.map((replica) => scrapeMetric(replica.baseUrl, 'loyalty_commands_done_total')));
    expect(donePerReplica[0] + donePerReplica[1]).toBe(ORDERS);
    expect(Math.min(...donePerReplica)).toBeGreaterThan(0);
  });
});
