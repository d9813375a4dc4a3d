// Where an order's time goes, per stage, read afterwards from the services' own tables (their
// timestamps are written by the transactions themselves, so measuring adds no work to the loop):
//   orders relay          orders outbox row created → published (Kafka acked, row marked)
//   → inventory inbox     that publish → inventory's inbox row (its transaction's start)
//   inventory relay       inventory outbox row created → published
//   → orders inbox        that publish → orders' inbox row
//   loyalty               loyalty command written → accrual acknowledged and command DONE
// Timestamps come from one machine's clock (Postgres now() and the apps' Date), so they compare.
import { queryTestDatabase } from '@tools/local-stack';
import { summarizeLatencies } from './percentiles.js';

export type StageSummary = { count: number; p50Ms: number; p95Ms: number; p99Ms: number };

const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

function summary(values: number[]): StageSummary {
  const s = summarizeLatencies(values);
  return { count: s.count, p50Ms: s.p50, p95Ms: s.p95, p99Ms: s.p99 };
}

/** Per-stage latencies of the orders `orderIds` (whatever stage they reached). */
export async function stageLatencies(
  serverUrl: string,
  databases: { orders: string; inventory: string },
  orderIds: string[],
): Promise<Record<string, StageSummary>> {
  type Row = { id: string; aggregate_id: string; created: number; published: number | null };
  const ordersOut = await queryTestDatabase<Row>(
    serverUrl,
    databases.orders,
    `SELECT id::text, aggregate_id, ${epochMs('created_at')} AS created, ${epochMs('published_at')} AS published
       FROM outbox_messages WHERE message_type = 'OrderCreated' AND aggregate_id = ANY($1::text[])`,
    [orderIds],
  );
  const inventoryOut = await queryTestDatabase<Row>(
    serverUrl,
    databases.inventory,
    `SELECT id::text, aggregate_id, ${epochMs('created_at')} AS created, ${epochMs('published_at')} AS published
       FROM outbox_messages WHERE aggregate_id = ANY($1::text[])`,
    [orderIds],
  );
  const received = async (database: string, ids: string[]) =>
    new Map(
      (
        await queryTestDatabase<{ message_id: string; received: number }>(
          serverUrl,
          database,
          `SELECT message_id::text, ${epochMs('received_at')} AS received FROM inbox_messages WHERE message_id = ANY($1::uuid[])`,
          [ids],
        )
      ).map((row) => [row.message_id, row.received]),
    );
  const inventoryIn = await received(
    databases.inventory,
    ordersOut.map((row) => row.id),
  );
  const ordersIn = await received(
    databases.orders,
    inventoryOut.map((row) => row.id),
  );
  const commands = await queryTestDatabase<{ created: number; completed: number | null }>(
    serverUrl,
    databases.inventory,
    `SELECT ${epochMs('created_at')} AS created, ${epochMs('completed_at')} AS completed FROM loyalty_commands WHERE order_id = ANY($1::uuid[])`,
    [orderIds],
  );

  const gaps = <T>(rows: T[], from: (row: T) => number | null | undefined, to: (row: T) => number | null | undefined) =>
    rows.flatMap((row) => {
      const [a, b] = [from(row), to(row)];
      return a == null || b == null ? [] : [b - a];
    });
  return {
    'orders relay': summary(
      gaps(
        ordersOut,
        (row) => row.created,
        (row) => row.published,
      ),
    ),
    'published → inventory inbox': summary(
      gaps(
        ordersOut,
        (row) => row.published,
        (row) => inventoryIn.get(row.id),
      ),
    ),
    'inventory relay': summary(
      gaps(
        inventoryOut,
        (row) => row.created,
        (row) => row.published,
      ),
    ),
    'published → orders inbox': summary(
      gaps(
        inventoryOut,
        (row) => row.published,
        (row) => ordersIn.get(row.id),
      ),
    ),
    'loyalty command → DONE': summary(
      gaps(
        commands,
        (row) => row.created,
        (row) => row.completed,
      ),
    ),
  };
}
