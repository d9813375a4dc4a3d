import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  cancelOrder as cancelOrderAs,
  customerToken,
  getOrder as getOrderAs,
  getStock,
  listAccruals,
  type OrderLineBody,
  type OrderView,
  seedPrices,
  setStock,
  testInfrastructure,
  TestServices,
  placeOrder as postOrder,
} from '@test/fixtures';
import { queryTestDatabase, requestJson, type ServiceProcess, uniqueName, uniqueSku, waitFor } from '@tools/local-stack';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';

/**
 * The whole flow with the three services as real processes, each on its own test database:
 * orders -> Kafka -> inventory (inbox, outbox, loyalty command) -> Kafka -> orders, and inventory
 * -> loyalty over HTTP. Single orders first, then a batch of mixed orders checked against the
 * invariants of docs/chaos.md (one final state per order, one reservation and one accrual per reserved
 * order, stock conserved) once the system is quiet.
 */
const { serverUrl } = testInfrastructure();
const run = uniqueSku('E2E');
const SKUS = { apple: `${run}-APPLE`, banana: `${run}-BANANA`, cherry: `${run}-CHERRY` };
const INITIAL_STOCK: Record<string, number> = { [SKUS.apple]: 60, [SKUS.banana]: 30, [SKUS.cherry]: 12 };
/** On orders' price list but never stocked: orders accepts it, inventory rejects it (UNKNOWN_SKU). */
const UNKNOWN_SKU = `${run}-DRAGONFRUIT`;
/** Unit prices in cents: the server prices every line from its list. */
const PRICES: Record<string, number> = { [SKUS.apple]: 1999, [SKUS.banana]: 500, [SKUS.cherry]: 100, [UNKNOWN_SKU]: 100 };
const FINAL_STATES = ['RESERVED', 'REJECTED', 'CANCELLED'];

/** Deterministic pseudo-random numbers (mulberry32), so a failing batch can be replayed by seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('order flow end to end (orders, inventory, loyalty as real processes)', () => {
  const services = new TestServices();
  let databases: { inventory: string; loyalty: string; orders?: string };
  let orders: ServiceProcess;
  let inventory: ServiceProcess;
  let loyalty: ServiceProcess;
  /** Every order this file placed: the invariants are checked over all of them. */
  const placed: string[] = [];

  const sql = (database: keyof typeof databases, text: string, params: unknown[] = []) =>
    queryTestDatabase<Record<string, any>>(serverUrl, databases[database]!, text, params);

  /** Order id -> the customer who placed it: each reads and cancels as its owner. */
  const owners = new Map<string, string>();
  async function placeOrder(customerId: string, items: OrderLineBody[]): Promise<OrderView> {
    const order = await postOrder(orders.baseUrl, { customerId, items });
    placed.push(order.id);
    owners.set(order.id, customerId);
    return order;
  }
  const getOrder = async (id: string) => (await getOrderAs(orders.baseUrl, id, owners.get(id)!)).body;
  const cancelOrder = (id: string) => cancelOrderAs(orders.baseUrl, id, owners.get(id)!);
  const stockOf = (sku: string) => getStock(inventory.baseUrl, sku);
  const accrualsOf = async (customerId: string) => (await listAccruals(loyalty.baseUrl, customerId)).body;

  const balanceOf = async (customerId: string) =>
    (await requestJson('GET', `${loyalty.baseUrl}/balance`, { token: await customerToken(customerId, 'loyalty') })).body as {
      accruedPoints: number;
      reversedPoints: number;
      balancePoints: number;
    };

  const finalState = (id: string, timeoutMs = 60_000) =>
    waitFor(
      async () => {
        const order = await getOrder(id);
        return FINAL_STATES.includes(order.status) ? order : undefined;
      },
      { timeoutMs, description: `order ${id} to reach a final state` },
    );

  /**
   * Quiet: every order final; every event each side wrote is published and was handled by the
   * other side's inbox; no loyalty command waits. Only then do the invariants mean anything.
   */
  async function quiet(timeoutMs = 120_000): Promise<void> {
    await waitFor(
      async () => {
        const [pendingOrders] = await sql('orders', "SELECT count(*)::int AS n FROM orders WHERE status = 'PENDING'");
        const [ordersOutbox] = await sql('orders', 'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
        const [inventoryOutbox] = await sql('inventory', 'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
        const [commands] = await sql('inventory', "SELECT count(*)::int AS n FROM loyalty_commands WHERE status = 'PENDING'");
        if (pendingOrders.n + ordersOutbox.n + inventoryOutbox.n + commands.n > 0) return false;
        const sent = (await sql('orders', 'SELECT id FROM outbox_messages')).map((row) => row.id);
        const seenByInventory = new Set(
          (await sql('inventory', 'SELECT message_id FROM inbox_messages WHERE message_id = ANY($1::uuid[])', [sent])).map(
            (row) => row.message_id,
          ),
        );
        const answers = (await sql('inventory', 'SELECT id FROM outbox_messages WHERE aggregate_id = ANY($1::text[])', [placed])).map(
          (row) => row.id,
        );
        const seenByOrders = new Set(
          (await sql('orders', 'SELECT message_id FROM inbox_messages WHERE message_id = ANY($1::uuid[])', [answers])).map(
            (row) => row.message_id,
          ),
        );
        return sent.every((id) => seenByInventory.has(id)) && answers.every((id) => seenByOrders.has(id));
      },
      {
        timeoutMs,
        intervalMs: 250,
        description: 'the system to be quiet (orders final, outboxes drained, inboxes caught up, commands done)',
      },
    );
  }

  beforeAll(async () => {
    ({ inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'e2e', { LOYALTY_RETRY_MAX_MS: '1000' }));
    databases.orders = await services.createDatabase('e2e_orders');
    orders = await services.start({
      service: 'orders',
      database: databases.orders,
      // Answers to other runs' orders share the topic and fail here (unknown order): give them up fast.
      env: { INBOX_MAX_ATTEMPTS: '2', INBOX_RETRY_BASE_MS: '10' },
    });
    for (const [sku, available] of Object.entries(INITIAL_STOCK)) await setStock(inventory.baseUrl, sku, available);
    await seedPrices(serverUrl, databases.orders, PRICES);
  });

  afterAll(() => services.tearDown());

  it('when an order can be served, then it ends RESERVED, its stock is reserved and loyalty holds its accrual', async () => {
    const customerId = uniqueName('e2e-customer');
    const before = await stockOf(SKUS.apple);
    const order = await placeOrder(customerId, [{ sku: SKUS.apple, quantity: 3 }]);
    expect(order).toMatchObject({ status: 'PENDING', items: [{ sku: SKUS.apple, quantity: 3, unitPriceCents: 1999 }], totalCents: 5997 });

    expect(await finalState(order.id)).toMatchObject({ status: 'RESERVED' });
    expect(await stockOf(SKUS.apple)).toMatchObject({ available: before.available - 3, reserved: before.reserved + 3 });
    const accruals = await waitFor(
      async () => {
        const listed = await accrualsOf(customerId);
        return listed.items.length > 0 ? listed : undefined;
      },
      { timeoutMs: 30_000, description: `the accrual of ${order.id} at loyalty` },
    );
    expect(accruals).toMatchObject({ totalPoints: 59, items: [{ orderId: order.id, points: 59 }] });
  });

  it("when a reserved order is cancelled, then it ends CANCELLED, its stock is released and its points reversed: the customer's balance is 0", async () => {
    const before = await stockOf(SKUS.banana);
    const customerId = uniqueName('e2e-customer');
    const order = await placeOrder(customerId, [{ sku: SKUS.banana, quantity: 2 }]);
    expect(await finalState(order.id)).toMatchObject({ status: 'RESERVED' });
    expect(await stockOf(SKUS.banana)).toMatchObject({ available: before.available - 2 });

    const cancelled = await cancelOrder(order.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    await waitFor(
      async () => (await sql('inventory', "SELECT 1 FROM reservations WHERE order_id = $1 AND status = 'RELEASED'", [order.id])).length > 0,
      {
        timeoutMs: 30_000,
        description: `inventory to release the stock of ${order.id}`,
      },
    );
    expect(await stockOf(SKUS.banana)).toMatchObject({ available: before.available, reserved: before.reserved });
    expect(await getOrder(order.id)).toMatchObject({ status: 'CANCELLED' });
    const balance = await waitFor(
      async () => {
        const current = await balanceOf(customerId);
        return current.reversedPoints > 0 ? current : undefined;
      },
      { timeoutMs: 30_000, description: `the reversal of ${order.id} at loyalty` },
    );
    expect(balance).toEqual({ customerId, accruedPoints: 10, reversedPoints: 10, balancePoints: 0 });
  });

  it('when another customer reads or cancels an order, then both answer 404 as for a missing order and the order is untouched', async () => {
    const order = await placeOrder(uniqueName('e2e-owner'), [{ sku: SKUS.banana, quantity: 1 }]);
    const intruder = uniqueName('e2e-intruder');

    const read = await getOrderAs(orders.baseUrl, order.id, intruder);
    const cancel = await cancelOrderAs(orders.baseUrl, order.id, intruder);
    const missing = await getOrderAs(orders.baseUrl, '00000000-0000-4000-8000-000000000000', intruder);

    for (const response of [read, cancel]) {
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body).toMatchObject({ code: 'ORDERS.NOT_FOUND' });
      // The same shape as a missing order's, so an id cannot be probed for existence.
      expect(Object.keys(response.body as object).sort()).toEqual(Object.keys(missing.body).sort());
    }
    expect((await finalState(order.id)).status).toBe('RESERVED');
  });

  it('when an order wants more than is in stock, then it ends REJECTED with INVENTORY.INSUFFICIENT_STOCK and stock is unchanged', async () => {
    const before = { apple: await stockOf(SKUS.apple), cherry: await stockOf(SKUS.cherry) };
    const customerId = uniqueName('e2e-customer');
    const order = await placeOrder(customerId, [
      { sku: SKUS.apple, quantity: 1 },
      { sku: SKUS.cherry, quantity: before.cherry.available + 1 },
    ]);

    const rejected = await finalState(order.id);
    expect(rejected).toMatchObject({ status: 'REJECTED', rejection: { code: 'INVENTORY.INSUFFICIENT_STOCK' } });
    expect(rejected.rejection!.reason).toContain(SKUS.cherry);
    expect(await stockOf(SKUS.apple)).toMatchObject({ available: before.apple.available, reserved: before.apple.reserved });
    expect(await stockOf(SKUS.cherry)).toMatchObject({ available: before.cherry.available, reserved: before.cherry.reserved });
    expect((await accrualsOf(customerId)).items).toEqual([]);
  });

  it('when an order names an unknown SKU, then it ends REJECTED with INVENTORY.UNKNOWN_SKU and stock is unchanged', async () => {
    const before = await stockOf(SKUS.apple);
    const order = await placeOrder(uniqueName('e2e-customer'), [
      { sku: SKUS.apple, quantity: 1 },
      { sku: UNKNOWN_SKU, quantity: 1 },
    ]);

    const rejected = await finalState(order.id);
    expect(rejected).toMatchObject({ status: 'REJECTED', rejection: { code: 'INVENTORY.UNKNOWN_SKU' } });
    expect(rejected.rejection!.reason).toContain(UNKNOWN_SKU);
    expect(await stockOf(SKUS.apple)).toMatchObject({ available: before.available, reserved: before.reserved });
  });

  it('when 50 mixed orders run concurrently, some cancelled early or late, then every invariant holds once the system is quiet', async () => {
    const seed = Date.now() % 2 ** 31;
    const next = random(seed);
    const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)];
    const batch: { id: string; cancel: 'early' | 'late' | 'never' }[] = [];

    const specs = Array.from({ length: 50 }, (_, index) => {
      const lines = Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        sku: index % 10 === 9 ? pick([SKUS.apple, UNKNOWN_SKU]) : pick(Object.values(SKUS)),
        quantity: 1 + Math.floor(next() * 4),
      }));
      if (index % 10 === 9 && !lines.some((line) => line.sku === UNKNOWN_SKU)) lines.push({ sku: UNKNOWN_SKU, quantity: 1 });
      const cancel: 'early' | 'late' | 'never' = index % 8 === 1 ? 'early' : index % 8 === 5 ? 'late' : 'never';
      return { customerId: `e2e-batch-${index % 7}-${run}`, lines, cancel };
    });

    // Ten at a time; an early cancel follows its order's creation at once (usually still PENDING).
    for (let start = 0; start < specs.length; start += 10) {
      await Promise.all(
        specs.slice(start, start + 10).map(async (spec) => {
          const order = await placeOrder(spec.customerId, spec.lines);
          batch.push({ id: order.id, cancel: spec.cancel });
          if (spec.cancel === 'early') {
            const response = await cancelOrder(order.id);
            expect([200, 409]).toContain(response.status);
          }
        }),
      );
    }
    for (const entry of batch.filter((item) => item.cancel === 'late')) {
      const order = await finalState(entry.id);
      const response = await cancelOrder(entry.id);
      // Only PENDING and RESERVED orders can be cancelled; a rejected one answers 409.
      expect({ id: entry.id, was: order.status, status: response.status }).toEqual({
        id: entry.id,
        was: order.status,
        status: order.status === 'REJECTED' ? 409 : 200,
      });
    }
    await quiet();

    const finals = await sql('orders', 'SELECT id, status, rejection_code FROM orders WHERE id = ANY($1::uuid[])', [placed]);
    const statusOf = new Map(finals.map((row) => [row.id, row.status]));
    const byStatus = (status: string) => finals.filter((row) => row.status === status).map((row) => row.id);
    const context = `seed ${seed}; statuses ${JSON.stringify(Object.fromEntries(FINAL_STATES.map((s) => [s, byStatus(s).length])))}`;

    // No committed order without a final state; the batch really was mixed.
    expect({ context, pending: finals.filter((row) => !FINAL_STATES.includes(row.status)) }).toEqual({ context, pending: [] });
    expect(finals).toHaveLength(placed.length);
    for (const status of FINAL_STATES)
      expect({ context, status, some: byStatus(status).length > 0 }).toEqual({ context, status, some: true });
    for (const row of finals.filter((r) => r.status === 'REJECTED')) {
      expect(['INVENTORY.INSUFFICIENT_STOCK', 'INVENTORY.UNKNOWN_SKU']).toContain(row.rejection_code);
    }

    // Exactly one reservation per reserved order, and none held for any other order.
    const reservations = await sql('inventory', 'SELECT order_id, status, items FROM reservations WHERE order_id = ANY($1::uuid[])', [
      placed,
    ]);
    const reservationOf = new Map(reservations.map((row) => [row.order_id, row]));
    for (const id of placed) {
      const reservation = reservationOf.get(id);
      const status = statusOf.get(id);
      if (status === 'RESERVED') expect({ id, reservation: reservation?.status }).toEqual({ id, reservation: 'RESERVED' });
      if (status === 'REJECTED') expect({ id, reservation }).toEqual({ id, reservation: undefined });
      if (status === 'CANCELLED')
        expect({ id, reservation: reservation?.status ?? 'none' }).toEqual({ id, reservation: expect.stringMatching(/^(RELEASED|none)$/) });
    }

    // Stock conservation per SKU: initial = available + reserved, and reserved = what RESERVED orders hold.
    const held: Record<string, number> = {};
    for (const row of reservations.filter((r) => r.status === 'RESERVED')) {
      for (const line of row.items as { sku: string; quantity: number }[]) held[line.sku] = (held[line.sku] ?? 0) + line.quantity;
    }
    for (const [sku, initial] of Object.entries(INITIAL_STOCK)) {
      const stock = await stockOf(sku);
      expect({ sku, total: stock.available + stock.reserved, reserved: stock.reserved }).toEqual({
        sku,
        total: initial,
        reserved: held[sku] ?? 0,
      });
    }

    // Exactly one accrual per order inventory ever reserved, none for others.
    const accruals = await sql(
      'loyalty',
      'SELECT order_id, count(*)::int AS n FROM accruals WHERE order_id = ANY($1::uuid[]) GROUP BY order_id',
      [placed],
    );
    expect(accruals.filter((row) => row.n !== 1)).toEqual([]);
    expect(accruals.map((row) => row.order_id).sort()).toEqual(reservations.map((row) => row.order_id).sort());

    // A release takes the accrual back: exactly one reversal per RELEASED reservation, of its points, none for
    // others; so every customer's balance is what their still-reserved orders earned.
    const reversals = await sql('loyalty', 'SELECT order_id, points FROM reversals WHERE order_id = ANY($1::uuid[])', [placed]);
    const released = reservations.filter((row) => row.status === 'RELEASED').map((row) => row.order_id);
    expect({ context, reversed: reversals.map((row) => row.order_id).sort() }).toEqual({ context, reversed: [...released].sort() });
    const accrued = await sql('loyalty', 'SELECT order_id, points FROM accruals WHERE order_id = ANY($1::uuid[])', [released]);
    const pointsOf = new Map(accrued.map((row) => [row.order_id, row.points]));
    expect(reversals.filter((row) => row.points !== pointsOf.get(row.order_id))).toEqual([]);

    // No pending outbox row is left, on either side.
    expect(await sql('orders', 'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL')).toEqual([{ n: 0 }]);
    expect(await sql('inventory', 'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL')).toEqual([{ n: 0 }]);

    // Every answer orders applied came from this run's inventory: on a shared broker, another
    // inventory consuming orders.order.v1 could answer these orders too, and the test would be void.
    const applied = (await sql('orders', "SELECT message_id FROM inbox_messages WHERE consumer = 'orders.reservation-results'")).map(
      (row) => row.message_id,
    );
    const ours = new Set(
      (await sql('inventory', 'SELECT id FROM outbox_messages WHERE id = ANY($1::uuid[])', [applied])).map((row) => row.id),
    );
    expect(applied.filter((id) => !ours.has(id))).toEqual([]);
  });
});
