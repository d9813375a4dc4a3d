import type { FailpointName } from '@libs/failpoints';
import { placeOrder, type PlaceOrderBody, seedPrices, testInfrastructure, type TestServices } from '@test/fixtures';
import { type ServiceProcess } from '@tools/local-stack';

/** What {@link placeOrderAndCrashRelay} leaves behind. */
export interface CrashedRelay {
  /** The order whose outbox row the relay held when it died. */
  orderId: string;
  /** The orders process whose relay died (SIGKILL); `restart()` it to let a relay finish the job. */
  relay: ServiceProcess;
}

/**
 * The "when" of a relay crash test. On `database`, two orders processes: a writer with its relay
 * off, which takes the HTTP request, and a relay armed with `failpoint`, the one that gets killed.
 * Puts `prices` (SKU to cents) on the price list and places `order` through the writer; the NOTIFY of its commit wakes the relay, which runs up to the
 * failpoint and dies there. Resolves once the relay process is gone; both processes belong to
 * `services`, which stops them.
 */
export async function placeOrderAndCrashRelay(
  services: TestServices,
  database: string,
  failpoint: FailpointName,
  order: PlaceOrderBody,
  prices: Record<string, number>,
): Promise<CrashedRelay> {
  const writer = await services.start({ service: 'orders', name: 'orders-writer', database, env: { OUTBOX_RELAY_ENABLED: 'false' } });
  const relay = await services.start({ service: 'orders', name: 'relay-doomed', database, failpoints: [failpoint] });
  await seedPrices(testInfrastructure().serverUrl, database, prices);
  const { id: orderId } = await placeOrder(writer.baseUrl, order);
  await relay.waitForFailpoint(failpoint, 30_000);
  return { orderId, relay };
}
