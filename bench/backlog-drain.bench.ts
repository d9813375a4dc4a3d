// Backlog drain: what an outage leaves behind. Inventory stops (SIGTERM); orders keep accepting and
// publishing; then inventory starts again on the same consumer group. Rate = orders PENDING at the
// restart / (time from inventory answering /health to the later of: the last of them RESERVED or
// REJECTED, the last loyalty command DONE).
import { queryTestDatabase, waitFor } from '@tools/local-stack';
import type { E2eStack } from './end-to-end.bench.js';
import { orderBody, postOrder } from './order-requests.js';

export interface DrainResult {
  /** Orders PENDING when inventory restarted: those placed while it was stopped, and any left before. */
  orders: number;
  placedWhileStopped: number;
  /**
   * True when orders began shedding for its pending backlog (`ORDERS_SHED_PENDING_MAX`) before
   * `orders` were placed: the backlog is then what the door let in, as it would be in an outage.
   */
  doorClosed: boolean;
  drainPerSec: number;
  /** False when the deadline passed first: the rate is then that of the `finished` orders. */
  complete: boolean;
  finished: number;
  seconds: number;
  inventoryStartSec: number;
  ordersFinishedSec: number;
  loyaltyDoneSec: number;
}

export async function runBacklogDrain(
  stack: E2eStack,
  options: { orders: number; timeoutMs: number },
  log: (text: string) => void,
): Promise<DrainResult> {
  const { serverUrl, databases } = stack;
  await stack.inventory.stop();
  const orderIds: string[] = [];
  let next = 0;
  let failures = 0;
  let doorClosed = false;
  // 16 clients until `orders` are accepted (a few more may be in flight at the end; all count), or
  // until orders sheds for its pending backlog: an outage leaves no more behind than that.
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (!doorClosed && orderIds.length < options.orders) {
        const posted = await postOrder(stack.orders.baseUrl, orderBody(next++), stack.tokens);
        if (posted.orderId) orderIds.push(posted.orderId);
        else if (posted.status === 503 && posted.error?.includes('orders_pending')) doorClosed = true;
        else if (++failures > 100) throw new Error(`drain: POST /orders keeps failing: ${posted.status} ${posted.error}`);
      }
    }),
  );
  if (doorClosed) log(`drain: orders shed at ${orderIds.length} orders pending (ORDERS_SHED_PENDING_MAX); draining those`);
  await waitFor(
    async () => {
      const [{ n }] = await queryTestDatabase<{ n: number }>(
        serverUrl,
        databases.orders,
        'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL',
      );
      return n === 0;
    },
    { timeoutMs: options.timeoutMs, intervalMs: 250, description: "orders' relay to publish the backlog" },
  );
  log(`drain: ${orderIds.length} orders accepted and published while inventory was stopped; starting inventory`);
  // The backlog is every order still PENDING when inventory comes back: this run's, and any an
  // earlier, overloaded step left behind (they sit ahead of these in the topic and count as work).
  const backlog = (
    await queryTestDatabase<{ id: string }>(serverUrl, databases.orders, "SELECT id::text FROM orders WHERE status = 'PENDING'")
  ).map((row) => row.id);
  const startAt = Date.now();
  await stack.inventory.restart();
  const healthyAt = Date.now();
  const drained = await waitFor(
    async () => {
      const [{ pending }] = await queryTestDatabase<{ pending: number }>(
        serverUrl,
        databases.orders,
        "SELECT count(*)::int AS pending FROM orders WHERE id = ANY($1::uuid[]) AND status = 'PENDING'",
        [backlog],
      );
      const [{ open }] = await queryTestDatabase<{ open: number }>(
        serverUrl,
        databases.inventory,
        "SELECT count(*)::int AS open FROM loyalty_commands WHERE status = 'PENDING'",
      );
      return pending === 0 && open === 0;
    },
    { timeoutMs: options.timeoutMs, intervalMs: 250, description: 'the backlog to drain (every order final, every loyalty command DONE)' },
  ).catch(() => false);
  if (!drained) {
    // Too slow to finish within the deadline: the rate of what did finish (final, and no loyalty
    // command left pending for it) is still the figure, marked incomplete, so a slow loop bounds the
    // run's length instead of failing it.
    const endedAt = Date.now();
    const [{ final }] = await queryTestDatabase<{ final: number }>(
      serverUrl,
      databases.orders,
      "SELECT count(*)::int AS final FROM orders WHERE id = ANY($1::uuid[]) AND status <> 'PENDING'",
      [backlog],
    );
    const [{ open }] = await queryTestDatabase<{ open: number }>(
      serverUrl,
      databases.inventory,
      "SELECT count(*)::int AS open FROM loyalty_commands WHERE status = 'PENDING' AND order_id = ANY($1::uuid[])",
      [backlog],
    );
    const finished = Math.max(0, final - open);
    const seconds = (endedAt - healthyAt) / 1000;
    log(
      `drain: deadline passed with ${finished} of ${backlog.length} orders finished: ${(finished / seconds).toFixed(1)} orders/s, incomplete`,
    );
    return {
      orders: backlog.length,
      placedWhileStopped: orderIds.length,
      doorClosed,
      drainPerSec: finished / seconds,
      seconds,
      complete: false,
      finished,
      inventoryStartSec: (healthyAt - startAt) / 1000,
      ordersFinishedSec: Number.NaN,
      loyaltyDoneSec: Number.NaN,
    };
  }
  const [{ last_order }] = await queryTestDatabase<{ last_order: number }>(
    serverUrl,
    databases.orders,
    'SELECT (extract(epoch FROM max(updated_at)) * 1000)::float8 AS last_order FROM orders WHERE id = ANY($1::uuid[])',
    [backlog],
  );
  const [{ last_done }] = await queryTestDatabase<{ last_done: number }>(
    serverUrl,
    databases.inventory,
    'SELECT (extract(epoch FROM max(completed_at)) * 1000)::float8 AS last_done FROM loyalty_commands',
  );
  const seconds = (Math.max(last_order, last_done) - healthyAt) / 1000;
  const result: DrainResult = {
    orders: backlog.length,
    placedWhileStopped: orderIds.length,
    doorClosed,
    drainPerSec: backlog.length / seconds,
    seconds,
    complete: true,
    finished: backlog.length,
    inventoryStartSec: (healthyAt - startAt) / 1000,
    ordersFinishedSec: (last_order - healthyAt) / 1000,
    loyaltyDoneSec: (last_done - healthyAt) / 1000,
  };
  log(
    `drain: ${result.orders} orders (${orderIds.length} placed while inventory was stopped) in ${seconds.toFixed(1)} s after inventory was healthy: ${result.drainPerSec.toFixed(1)} orders/s`,
  );
  return result;
}
