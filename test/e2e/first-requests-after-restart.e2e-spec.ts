import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CpuLoad, customerToken, placeOrderPayload, scrapeMetric, seedPrices, testInfrastructure, TestServices } from '@test/fixtures';
import { requestJson, type ServiceProcess, uniqueName, uniqueSku } from '@tools/local-stack';

const { serverUrl } = testInfrastructure();
/** Requests sent one after the other as soon as the restarted process answers `/health`. */
const FIRST_REQUESTS = 5;

/**
 * A cold process is late on its timers by itself (loading, compiling on first use, and here a
 * neighbour holding every core): the load-shedding door must judge load, not warm-up, so a
 * restarted orders process serves the requests it can serve instead of answering 503
 * SERVER.OVERLOADED. Load shedding is on, as in production and in the README's demo.
 */
describe('orders restarted while every core is busy (real process, load shedding on)', () => {
  const services = new TestServices();
  let orders: ServiceProcess;
  let load: CpuLoad | undefined;
  const sku = uniqueSku('SKU-COLD');

  beforeAll(async () => {
    const database = await services.createDatabase('cold_restart');
    orders = await services.start({ service: 'orders', database, env: { LOAD_SHED_ENABLED: 'true' } });
    await seedPrices(serverUrl, database, { [sku]: 300 });
  });

  afterAll(async () => {
    await load?.stop();
    await services.tearDown();
  });

  it('when orders is killed and restarted with both cores busy, then the requests sent as soon as /health answers 200 are served (201), none shed', async () => {
    await orders.kill();
    load = CpuLoad.start();
    // A fresh consumer group, as the demo's restart: the process then listens as soon as it is
    // built, instead of after the killed member's session expired. Resolves as soon as GET /health
    // answers 200 (polled every 200 ms).
    await orders.restart({ freshConsumerGroup: true });
    const answers: unknown[] = [];
    for (let n = 0; n < FIRST_REQUESTS; n += 1) {
      const customerId = uniqueName('cold-customer');
      const response = await requestJson('POST', `${orders.baseUrl}/orders`, {
        body: placeOrderPayload({ customerId, items: [{ sku, quantity: 1 }] }),
        token: await customerToken(customerId),
        timeoutMs: 30_000,
      });
      answers.push(response.status === 201 ? 201 : `${response.status} ${response.text}`);
    }
    await load.stop();
    expect(answers).toEqual(Array.from({ length: FIRST_REQUESTS }, () => 201));
    expect(await scrapeMetric(orders.baseUrl, 'http_requests_shed_total')).toBe(0);
  });
});
