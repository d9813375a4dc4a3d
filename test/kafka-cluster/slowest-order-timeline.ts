import { queryTestDatabase } from '@tools/local-stack';
import type { ChaosCluster } from '../chaos/chaos-cluster.js';
import type { CompletedOrder } from './failover-stall.js';

type Stamp = { at: number | null };

async function stamp(cluster: ChaosCluster, database: string, sql: string, orderId: string): Promise<number | null> {
  const rows = await queryTestDatabase<Stamp>(cluster.serverUrl, database, sql, [orderId]);
  return rows[0]?.at ?? null;
}

const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/** An answered order, with the id that finds its messages. */
export interface AnsweredOrder extends CompletedOrder {
  id: string;
}

/**
 * Where one order (the slowest answered one) spent its time, each step relative to the fault (or,
 * where the scenario has no single fault, to the order's placement): placed, its OrderCreated
 * published, handled by inventory, inventory's answer published, answered. A failover bound that
 * fails then names the stage that held it (a producer on a dead leader, a group rejoining, a relay
 * asleep) instead of one number.
 */
export async function slowestOrderTimeline(cluster: ChaosCluster, order: AnsweredOrder, faultAtMs: number): Promise<string> {
  const { orders, inventory } = cluster.databases;
  const [created] = await queryTestDatabase<{ id: string; at: number | null }>(
    cluster.serverUrl,
    orders,
    `SELECT id::text, ${epochMs('published_at')} AS at FROM outbox_messages
     WHERE aggregate_id = $1::text AND message_type = 'OrderCreated' ORDER BY seq LIMIT 1`,
    [order.id],
  );
  const steps: [string, number | null][] = [
    ['placed', order.createdAtMs],
    ['OrderCreated published', created?.at ?? null],
    [
      'handled by inventory',
      created
        ? await stamp(
            cluster,
            inventory,
            `SELECT ${epochMs('min(received_at)')} AS at FROM inbox_messages WHERE message_id = $1`,
            created.id,
          )
        : null,
    ],
    [
      'answer published',
      await stamp(
        cluster,
        inventory,
        `SELECT ${epochMs('min(published_at)')} AS at FROM outbox_messages WHERE aggregate_id = $1::text`,
        order.id,
      ),
    ],
    ['answered', order.finalAtMs],
  ];
  // A scenario without one moment of fault (a rolling restart) measures from the order's placement.
  const faulted = Number.isFinite(faultAtMs);
  const origin = faulted ? faultAtMs : order.createdAtMs;
  const relative = (at: number | null) => (at === null ? 'never' : `${Math.round(at - origin)} ms`);
  const to = faulted ? 'the fault' : 'its placement';
  return `slowest order ${order.id}, relative to ${to}: ${steps.map(([step, at]) => `${step} ${relative(at)}`).join(', ')}`;
}
