import { Topics } from '@libs/contracts';
import { committedOffsets, queryTestDatabase, waitFor } from '@tools/local-stack';
import type { ChaosCluster } from './chaos-cluster.js';
import { endOffsets } from './topic-snapshot.js';

/**
 * What still moves, or `undefined` once nothing does: no order PENDING, no outbox row unpublished,
 * no loyalty command PENDING, and both consumer groups committed up to the end of their topics.
 */
async function stillMoving(cluster: ChaosCluster): Promise<string | undefined> {
  const count = async (database: string, sql: string) => Number((await queryTestDatabase(cluster.serverUrl, database, sql))[0].n);
  const { orders, inventory } = cluster.databases;
  const moving: string[] = [];
  const pendingOrders = await count(orders, "SELECT count(*)::int AS n FROM orders WHERE status = 'PENDING'");
  if (pendingOrders > 0) moving.push(`${pendingOrders} order(s) PENDING`);
  for (const [name, database] of [
    ['orders', orders],
    ['inventory', inventory],
  ]) {
    const pending = await count(database, 'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
    if (pending > 0) moving.push(`${pending} ${name} outbox row(s) pending`);
  }
  const commands = await count(inventory, "SELECT count(*)::int AS n FROM loyalty_commands WHERE status = 'PENDING'");
  if (commands > 0) moving.push(`${commands} loyalty command(s) PENDING`);
  const groups = cluster.consumerGroups;
  for (const [group, topic] of [
    [groups.inventory, Topics.orders],
    [groups.orders, Topics.reservations],
  ]) {
    const [ends, committed] = await Promise.all([
      endOffsets(cluster.broker.brokers, topic),
      committedOffsets(cluster.broker.brokers, group, topic),
    ]);
    const lag = Object.entries(ends).reduce(
      (sum, [partition, end]) => sum + Math.max(0, end - Math.max(0, committed[Number(partition)] ?? 0)),
      0,
    );
    if (lag > 0) moving.push(`lag ${lag} on ${topic}`);
  }
  return moving.length > 0 ? moving.join(', ') : undefined;
}

/**
 * Waits until {@link stillMoving} finds nothing, twice in a row a second apart. Resolves with
 * `undefined` when quiet, or with what still moved at the deadline: the checker runs either way,
 * and the leftovers show up as violations.
 */
export async function waitForQuiet(cluster: ChaosCluster, timeoutMs: number): Promise<string | undefined> {
  let last: string | undefined = 'not checked yet';
  let quietSince: number | undefined;
  try {
    await waitFor(
      async () => {
        last = await stillMoving(cluster).catch((error: unknown) => `check failed: ${(error as Error).message}`);
        if (last !== undefined) quietSince = undefined;
        else quietSince ??= Date.now();
        return quietSince !== undefined && Date.now() - quietSince >= 1000;
      },
      { timeoutMs, intervalMs: 500, description: 'the system to be quiet' },
    );
    return undefined;
  } catch {
    return last;
  }
}
