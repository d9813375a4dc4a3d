import type { EntityManager } from 'typeorm';

/**
 * Serialises every handler of one order until its transaction ends. Reserving reads
 * `cancelled_orders` and releasing reads `reservations`: without a common lock, an OrderCreated and
 * a late OrderCancelled handled at once (two replicas during a rebalance) could each miss the
 * other's uncommitted row, and stock would stay reserved for a cancelled order. A row lock cannot
 * help, because neither row exists yet; a transaction-scoped advisory lock on the order id can.
 * The two-key form is a lock space of its own (the relay's leader lock uses the one-key form), and
 * the first key names this use; a hash collision only makes two unrelated orders wait for each other.
 */
const ORDER_LOCK_SPACE = 7_001;

/**
 * Takes the lock of every order of `orderIds`, in one statement and in sorted order: two batches
 * that share orders (two replicas during a rebalance) then wait for each other instead of deadlocking.
 */
export async function lockOrders(manager: EntityManager, orderIds: readonly string[]): Promise<void> {
  const sorted = [...new Set(orderIds)].sort();
  await manager.query('SELECT pg_advisory_xact_lock($1, hashtext(id)) FROM unnest($2::text[]) AS id', [ORDER_LOCK_SPACE, sorted]);
}

export async function lockOrder(manager: EntityManager, orderId: string): Promise<void> {
  await lockOrders(manager, [orderId]);
}
