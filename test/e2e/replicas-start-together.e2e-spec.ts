import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PrivateKafka, testInfrastructure, TestServices } from '@test/fixtures';
import { migrateServiceDatabase, type ServiceName, type ServiceProcess } from '@tools/local-stack';

/**
 * Replicas of every app started at the same moment on a FRESH broker (no topic,
 * no `__consumer_offsets` yet) all become healthy. Before, two inventory processes racing to create
 * the same topics could exit with "This server does not host this topic-partition" (the topic was
 * created by the controller, the broker had not heard of it yet).
 */
describe('two replicas of each app, started at once on a fresh broker (real processes)', () => {
  let broker: PrivateKafka;
  const services = new TestServices();
  const databases: Partial<Record<ServiceName, string>> = {};

  beforeAll(async () => {
    broker = await PrivateKafka.start();
    // Migrated first: this test is about Kafka start-up, not about two migrations racing.
    for (const service of ['orders', 'inventory', 'loyalty'] as const) {
      databases[service] = await services.createDatabase(`replicas_${service}`);
      await migrateServiceDatabase(service, testInfrastructure().serverUrl, databases[service]);
    }
  }, 180_000);

  afterAll(async () => {
    await services.tearDown();
    await broker?.destroy();
  });

  it('when orders, inventory and loyalty each start twice at the same moment, then all six answer /health with 200 and none exited', async () => {
    const starts = (['orders', 'inventory', 'loyalty'] as const).flatMap((service) =>
      [1, 2].map((replica) =>
        services.start({
          service,
          name: `${service}-${replica}`,
          database: databases[service]!,
          brokers: broker.brokers,
          // Nothing is dispatched in this test; inventory only needs a valid URL to start.
          env: service === 'inventory' ? { LOYALTY_BASE_URL: 'http://127.0.0.1:9' } : {},
        }),
      ),
    );
    const settled = await Promise.allSettled(starts);
    const failures = settled.flatMap((result) =>
      result.status === 'rejected' ? [String((result.reason as Error).message).slice(0, 3000)] : [],
    );
    expect(failures).toEqual([]);

    const started = settled.map((result) => (result as PromiseFulfilledResult<ServiceProcess>).value);
    for (const service of started) {
      const response = await fetch(`${service.baseUrl}/health`);
      expect({ name: service.name, status: response.status, running: service.process.isRunning }).toEqual({
        name: service.name,
        status: 200,
        running: true,
      });
    }
  });
});
