import type { DataSource, EntityManager } from 'typeorm';
import { createDayPartition, DAY_MS, dayOf, dayOfPartition, dayPartitionName, partitionsOf } from './day-partitions.js';

/** A table range-partitioned by day of its time-ordered id, and when one of its days may go. */
export interface DayPartitionPolicy {
  table: string;
  /** The partition key: a UUIDv7 column. */
  key: string;
  /** Partitions kept ready after today's. */
  daysAhead: number;
  /** How long a row is kept, in milliseconds: a day ended before `now - retentionMs` is a candidate. */
  retentionMs: number;
  /** A condition on a partition's rows, `$1` bound to `retentionMs`: while one row matches, the partition stays (a pending row, a row still within retention). */
  stillNeeded: string;
}

export interface DayPartitionPass {
  created: string[];
  dropped: string[];
  /** Partitions past retention kept because a row still needs them, or because the lock was not granted in time. */
  kept: string[];
}

/**
 * How long a drop waits for its locks. `DETACH` needs the parent exclusively, and a lock request in
 * the queue blocks every statement on the table behind it: waiting briefly and trying again at the
 * next run costs the orders at most this once, where waiting out a long transaction would stall them.
 */
const DROP_LOCK_TIMEOUT_MS = 1000;

/**
 * One maintenance pass over a day-partitioned table: creates the partitions of today and the next
 * `daysAhead` days that are missing, then drops each day's partition that is past retention and
 * holds no row still needed, whole (no `DELETE`, no dead tuples, the disk given back at once).
 */
export async function maintainDayPartitions(
  dataSource: DataSource,
  policy: DayPartitionPolicy,
  nowMs: number = Date.now(),
): Promise<DayPartitionPass> {
  const pass: DayPartitionPass = { created: [], dropped: [], kept: [] };
  for (let day = 0; day <= policy.daysAhead; day++) {
    const dayMs = dayOf(nowMs) + day * DAY_MS;
    const created = await dataSource.transaction(async (manager) => {
      await oneReplicaAtATime(manager, policy.table);
      return createDayPartition(manager, policy.table, policy.key, dayMs);
    });
    if (created) pass.created.push(dayPartitionName(policy.table, dayMs));
  }
  for (const partition of await partitionsOf(dataSource, policy.table)) {
    const dayMs = dayOfPartition(policy.table, partition);
    if (dayMs === undefined || dayMs + DAY_MS > nowMs - policy.retentionMs) continue;
    const dropped = await dropUnlessNeeded(dataSource, policy, partition);
    (dropped ? pass.dropped : pass.kept).push(partition);
  }
  return pass;
}

/**
 * Every replica runs the retention job: a transaction-scoped advisory lock per table makes their
 * catalogue changes take turns, so two never create (or drop) the same partition at once.
 */
async function oneReplicaAtATime(manager: EntityManager, table: string): Promise<void> {
  await manager.query("SELECT pg_advisory_xact_lock(hashtext('day-partitions:' || $1))", [table]);
}

/**
 * Drops `partition` if none of its rows is still needed. The partition is locked before it is read,
 * so no row can arrive between the check and the drop (a redelivery claiming an id of that day).
 */
async function dropUnlessNeeded(dataSource: DataSource, policy: DayPartitionPolicy, partition: string): Promise<boolean> {
  try {
    return await dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL lock_timeout = ${DROP_LOCK_TIMEOUT_MS}`);
      await oneReplicaAtATime(manager, policy.table);
      // Another replica's run may have dropped it meanwhile.
      const [{ exists }]: { exists: boolean }[] = await manager.query('SELECT to_regclass($1) IS NOT NULL AS exists', [partition]);
      if (!exists) return false;
      await manager.query(`LOCK TABLE ${partition} IN ACCESS EXCLUSIVE MODE`);
      const [{ needed }]: { needed: boolean }[] = await manager.query(
        `SELECT EXISTS (SELECT 1 FROM ${partition} WHERE ${policy.stillNeeded}) AS needed`,
        [policy.retentionMs],
      );
      if (needed) return false;
      await manager.query(`ALTER TABLE ${policy.table} DETACH PARTITION ${partition}`);
      await manager.query(`DROP TABLE ${partition}`);
      return true;
    });
  } catch (error) {
    // 55P03 lock_not_available: someone held the table longer than the timeout; the next run tries again.
    if ((error as { driverError?: { code?: string } }).driverError?.code === '55P03') return false;
    throw error;
  }
}
