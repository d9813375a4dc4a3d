import { Topics } from '@libs/contracts';
import { deadLetterTopic } from '@libs/envelope';
import { queryTestDatabase, type RecordedMessage } from '@tools/local-stack';
import type { ChaosDatabases } from './chaos-cluster.js';
import type { UnexpectedExit } from './chaos-monkey.js';
import type { OrderOutcome } from './order-load.js';
import { endOffsets, readWholeTopic } from './topic-snapshot.js';

/** Where the checker reads, with its own clients (pg, kafkajs): nothing goes through the apps. */
export interface CheckerSources {
  serverUrl: string;
  databases: ChaosDatabases;
  brokers: string[];
  initialStock: Map<string, number>;
}

/** What the checker counted while proving the invariants, for the summary. */
export interface CheckFacts {
  statuses: Record<string, number>;
  reservations: { reserved: number; released: number };
  accruals: number;
  /** Reversals at loyalty: one per cancelled order whose reservation was released. */
  reversals: number;
  /** Records on a topic whose message id an earlier record already had (a relay republish). */
  copiesOnTopic: Record<string, number>;
  /** Loyalty calls sent again by the dispatcher (sum of attempts - 1): each absorbed by loyalty's Idempotency-Key. */
  loyaltyResends: number;
  /** OrderCancelled that inventory saw before any reservation (remembered in cancelled_orders). */
  cancelledBeforeReservation: number;
}

export interface CheckResult {
  violations: string[];
  facts: CheckFacts;
}

/** A row as pg returns it: text, numbers and (for jsonb) parsed values, which the checks cast where they read them. */
type Row = Record<string, string | number | boolean | null>;

const MAX_EXAMPLES = 5;

/** Collects violations by invariant, keeping a few examples of each. */
class Violations {
  private readonly byRule = new Map<string, { count: number; examples: string[] }>();

  add(rule: string, example: string): void {
    const entry = this.byRule.get(rule) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < MAX_EXAMPLES) entry.examples.push(example);
    this.byRule.set(rule, entry);
  }

  list(): string[] {
    return [...this.byRule].map(([rule, { count, examples }]) => `${rule}: ${count} (e.g. ${examples.join('; ')})`);
  }
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function groupBy<T>(items: T[], key: (item: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k !== null) groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

const distinctIds = (records: RecordedMessage[]) => new Set(records.map((record) => record.headers['message-id']));

/**
 * Reads Postgres and Kafka once the system is quiet and proves every invariant of the soak. Each
 * rule is named as in docs/chaos.md; a violation names the rule, how often it broke and examples.
 */
export async function checkInvariants(
  sources: CheckerSources,
  outcomes: OrderOutcome[],
  unexpectedExits: UnexpectedExit[],
): Promise<CheckResult> {
  const v = new Violations();
  const sql = (database: keyof ChaosDatabases, text: string) =>
    queryTestDatabase<Row>(sources.serverUrl, sources.databases[database], text);

  const orders = await sql('orders', 'SELECT id::text, customer_id, status, total_cents FROM orders');
  const keys = await sql('orders', "SELECT key, response_status, response_body->>'id' AS order_id FROM idempotency_keys");
  // What a stuck row says about itself: a violation then tells a relay that keeps failing (and why) from one that never tried.
  const pendingOutboxRows = `SELECT id::text, topic, aggregate_id, attempts, coalesce(last_error, '') AS last_error,
            round(extract(epoch FROM next_attempt_at - now()))::int AS due_in_s, round(extract(epoch FROM now() - created_at))::int AS age_s
     FROM outbox_messages WHERE published_at IS NULL ORDER BY seq`;
  const ordersOutbox = await sql('orders', pendingOutboxRows);
  const stock = await sql('inventory', 'SELECT sku, available, reserved FROM stock_items');
  const reservations = await sql('inventory', 'SELECT order_id::text, status, items FROM reservations');
  const commands = await sql('inventory', 'SELECT id, order_id::text, status, points, attempts FROM loyalty_commands');
  const inventoryOutbox = await sql('inventory', pendingOutboxRows);
  const cancelledEarly = await sql('inventory', 'SELECT count(*)::int AS n FROM cancelled_orders');
  const accruals = await sql('loyalty', 'SELECT order_id::text, customer_id, points FROM accruals');
  const reversals = await sql('loyalty', 'SELECT order_id::text, customer_id, points FROM reversals');
  const orderEvents = await readWholeTopic(sources.brokers, Topics.orders);
  const reservationEvents = await readWholeTopic(sources.brokers, Topics.reservations);

  const orderById = new Map(orders.map((order) => [order.id as string, order]));

  // 1. No acknowledged order lost; 2. no second order for a key.
  for (const outcome of outcomes) {
    for (const id of outcome.orderIds)
      if (!orderById.has(id)) v.add('acknowledged order lost (201 without its order row)', `${outcome.idempotencyKey} -> ${id}`);
    if (outcome.orderIds.length > 1)
      v.add('second order for one Idempotency-Key (two 201s, two ids)', `${outcome.idempotencyKey}: ${outcome.orderIds.join(', ')}`);
    if (outcome.refused) v.add('valid request refused', `${outcome.idempotencyKey}: ${outcome.refused.status} ${outcome.refused.text}`);
    if (outcome.cancel === 'not-found') v.add('cancel of an acknowledged order answered 404', `${outcome.orderIds[0]}`);
    if (typeof outcome.cancel === 'object')
      v.add('cancel answered unexpectedly', `${outcome.orderIds[0]}: ${outcome.cancel.status} ${outcome.cancel.text}`);
    if (outcome.cancel === 'acknowledged' && orderById.get(outcome.orderIds[0])?.status !== 'CANCELLED') {
      v.add('acknowledged cancel not CANCELLED', `${outcome.orderIds[0]} is ${orderById.get(outcome.orderIds[0])?.status}`);
    }
  }
  const keysPerOrder = countBy(
    keys.filter((key) => key.response_status === 201),
    (key) => String(key.order_id),
  );
  for (const order of orders) {
    // Every request of the soak carries a key, so every order row was made under exactly one.
    if (keysPerOrder[order.id as string] !== 1)
      v.add('order row not made under exactly one Idempotency-Key', `${order.id}: ${keysPerOrder[order.id as string] ?? 0} key(s)`);
  }
  const acknowledgedByKey = new Map(outcomes.filter((o) => o.orderIds.length > 0).map((o) => [o.idempotencyKey, o.orderIds[0]]));
  for (const key of keys) {
    const acknowledged = acknowledgedByKey.get(key.key as string);
    if (acknowledged && acknowledged !== key.order_id)
      v.add('stored answer of a key names another order', `${key.key}: ${key.order_id} vs ${acknowledged}`);
  }

  // 3. None left PENDING.
  for (const order of orders) if (order.status === 'PENDING') v.add('order left PENDING', String(order.id));

  // 4. Exactly one OrderCreated message id per order; 5. OrderCreated before OrderCancelled on its partition.
  const eventsByOrder = groupBy(orderEvents, (record) => record.key);
  for (const order of orders) {
    const events = eventsByOrder.get(order.id as string) ?? [];
    const created = events.filter((record) => record.headers['message-type'] === 'OrderCreated');
    const cancelled = events.filter((record) => record.headers['message-type'] === 'OrderCancelled');
    if (distinctIds(created).size !== 1)
      v.add('not exactly one OrderCreated message id per order', `${order.id}: ${distinctIds(created).size}`);
    if (distinctIds(cancelled).size > 1)
      v.add('more than one OrderCancelled message id per order', `${order.id}: ${distinctIds(cancelled).size}`);
    if ((order.status === 'CANCELLED') !== cancelled.length > 0)
      v.add('OrderCancelled on the topic iff the order is CANCELLED', `${order.id} is ${order.status}, ${cancelled.length} OrderCancelled`);
    if (new Set(events.map((record) => record.partition)).size > 1) v.add("an order's events on more than one partition", String(order.id));
    if (created.length > 0 && cancelled.length > 0 && cancelled[0].offset < created[0].offset) {
      v.add(
        'OrderCancelled before OrderCreated on its partition',
        `${order.id}: cancelled at ${cancelled[0].offset}, created at ${created[0].offset}`,
      );
    }
  }
  for (const key of eventsByOrder.keys()) if (!orderById.has(key)) v.add('event on the orders topic for an order that does not exist', key);

  // Inventory answers each OrderCreated exactly once: one StockReserved or StockRejected id per order.
  const answersByOrder = groupBy(
    reservationEvents.filter((record) => ['StockReserved', 'StockRejected'].includes(record.headers['message-type'])),
    (record) => record.key,
  );
  for (const order of orders) {
    const answers = distinctIds(answersByOrder.get(order.id as string) ?? []).size;
    if (answers !== 1) v.add('not exactly one reservation answer message id per order', `${order.id}: ${answers}`);
  }

  // 6. At most one reservation per order (the primary key says so), agreeing with the order's state.
  const reservationByOrder = groupBy(reservations, (row) => row.order_id as string);
  for (const [orderId, rows] of reservationByOrder) {
    if (rows.length > 1) v.add('more than one reservation for an order', orderId);
    const status = orderById.get(orderId)?.status;
    const expected = status === 'RESERVED' ? ['RESERVED'] : status === 'CANCELLED' ? ['RELEASED'] : [];
    if (!expected.includes(rows[0].status as string))
      v.add('reservation disagrees with its order', `${orderId}: order ${status ?? 'missing'}, reservation ${rows[0].status}`);
  }
  for (const order of orders) {
    if (order.status === 'RESERVED' && !reservationByOrder.has(order.id as string))
      v.add('RESERVED order without a reservation', String(order.id));
  }

  // 7. Stock conserved per SKU: initial = available + reserved, and reserved = what RESERVED reservations hold.
  const held = new Map<string, number>();
  for (const row of reservations) {
    if (row.status !== 'RESERVED') continue;
    for (const line of row.items as unknown as { sku: string; quantity: number }[])
      held.set(line.sku, (held.get(line.sku) ?? 0) + line.quantity);
  }
  const stockBySku = new Map(stock.map((row) => [row.sku as string, row]));
  for (const [sku, initial] of sources.initialStock) {
    const row = stockBySku.get(sku);
    if (!row) {
      v.add('stock row missing', sku);
      continue;
    }
    const [available, reserved] = [Number(row.available), Number(row.reserved)];
    if (available + reserved !== initial)
      v.add('stock not conserved (initial != available + reserved)', `${sku}: ${initial} != ${available} + ${reserved}`);
    if (reserved !== (held.get(sku) ?? 0))
      v.add('reserved units != sum of RESERVED reservations', `${sku}: ${reserved} != ${held.get(sku) ?? 0}`);
  }

  // 8. Exactly one accrual per reservation, released or not: the accrual is granted with the
  // reservation; a release (a cancel) takes it back with a reversal (8b), never by deleting it.
  const accrualsByOrder = groupBy(accruals, (row) => row.order_id as string);
  const commandByOrder = new Map(
    commands.filter((row) => String(row.id).startsWith('loyalty-accrual:')).map((row) => [row.order_id as string, row]),
  );
  for (const orderId of reservationByOrder.keys()) {
    const rows = accrualsByOrder.get(orderId) ?? [];
    if (rows.length !== 1) v.add('not exactly one accrual per reservation', `${orderId}: ${rows.length}`);
    else if (rows[0].points !== commandByOrder.get(orderId)?.points)
      v.add('accrual points differ from the command', `${orderId}: ${rows[0].points} vs ${commandByOrder.get(orderId)?.points}`);
  }
  for (const orderId of accrualsByOrder.keys()) if (!reservationByOrder.has(orderId)) v.add('accrual without a reservation', orderId);

  // 8b. Compensation: at most one reversal per order (loyalty's unique key says so), and once quiet
  // exactly one per cancelled order whose reservation was released, of its accrual's points; none
  // for an order that was rejected or cancelled before it was reserved (nothing was credited).
  const reversalsByOrder = groupBy(reversals, (row) => row.order_id as string);
  for (const [orderId, rows] of reversalsByOrder) {
    if (rows.length > 1) v.add('more than one reversal for an order', `${orderId}: ${rows.length}`);
    if (reservationByOrder.get(orderId)?.[0].status !== 'RELEASED')
      v.add('reversal without a released reservation', `${orderId}: order ${orderById.get(orderId)?.status ?? 'missing'}`);
    const accrued = accrualsByOrder.get(orderId)?.[0];
    if (accrued && (accrued.points !== rows[0].points || accrued.customer_id !== rows[0].customer_id))
      v.add(
        'reversal differs from its accrual',
        `${orderId}: ${rows[0].points} of ${rows[0].customer_id} vs ${accrued.points} of ${accrued.customer_id}`,
      );
  }
  for (const [orderId, rows] of reservationByOrder) {
    if (rows[0].status === 'RELEASED' && !reversalsByOrder.has(orderId)) v.add('released reservation without its reversal', orderId);
  }

  // 8c. Per customer, loyalty's balance (accrued - reversed) is what the customer's RESERVED orders
  // earned, one point per 100 cents of the server-priced total: cancelled and rejected orders count 0.
  const balances = new Map<string, { accrued: number; reversed: number; owed: number }>();
  const balanceOf = (customerId: string) => {
    const balance = balances.get(customerId) ?? { accrued: 0, reversed: 0, owed: 0 };
    balances.set(customerId, balance);
    return balance;
  };
  for (const row of accruals) balanceOf(row.customer_id as string).accrued += Number(row.points);
  for (const row of reversals) balanceOf(row.customer_id as string).reversed += Number(row.points);
  for (const order of orders)
    if (order.status === 'RESERVED') balanceOf(order.customer_id as string).owed += Math.floor(Number(order.total_cents) / 100);
  for (const [customerId, { accrued, reversed, owed }] of balances) {
    if (accrued - reversed !== owed)
      v.add(
        'customer balance (accrued - reversed) differs from what their RESERVED orders earned',
        `${customerId}: ${accrued} - ${reversed} != ${owed}`,
      );
  }

  // 9. Nothing left to send.
  const describePending = (row: Row) =>
    `${row.topic} ${row.aggregate_id}: ${row.attempts} attempt(s), age ${row.age_s} s, next in ${row.due_in_s} s, last error ${row.last_error || 'none'}`;
  for (const row of ordersOutbox) v.add('pending outbox row (orders)', describePending(row));
  for (const row of inventoryOutbox) v.add('pending outbox row (inventory)', describePending(row));
  for (const command of commands) if (command.status !== 'DONE') v.add('loyalty command not DONE', `${command.id}: ${command.status}`);

  // 10. No dead letter.
  for (const topic of [deadLetterTopic(Topics.orders), deadLetterTopic(Topics.reservations)]) {
    const total = Object.values(await endOffsets(sources.brokers, topic)).reduce((sum, n) => sum + n, 0);
    if (total > 0) v.add('dead letters', `${total} on ${topic}`);
  }

  // 11. No process exited on its own.
  for (const exit of unexpectedExits)
    v.add('process exited on its own', `${exit.target} at ${exit.atMs} ms (${exit.exit}): ${exit.logTail.slice(-600)}`);

  const copies = (records: RecordedMessage[]) => records.length - distinctIds(records).size;
  return {
    violations: v.list(),
    facts: {
      statuses: countBy(orders, (order) => String(order.status)),
      reservations: {
        reserved: reservations.filter((r) => r.status === 'RESERVED').length,
        released: reservations.filter((r) => r.status === 'RELEASED').length,
      },
      accruals: accruals.length,
      reversals: reversals.length,
      copiesOnTopic: { [Topics.orders]: copies(orderEvents), [Topics.reservations]: copies(reservationEvents) },
      loyaltyResends: commands.reduce((sum, row) => sum + Math.max(0, Number(row.attempts) - 1), 0),
      cancelledBeforeReservation: Number(cancelledEarly[0].n),
    },
  };
}
