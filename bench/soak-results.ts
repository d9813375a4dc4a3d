// The shape of bench/results/soak.json (`npm run bench -- --soak <minutes>`), and a check of it.
// Pure, unit-tested in soak-results.spec.ts.
import type { AutovacuumState } from './autovacuum-as-in-production.js';
import type { LoopCpu } from './loop-cpu.js';
import type { ServerWrites } from './server-writes.js';
import type { SoakDrift } from './soak-drift.js';

/** One table of one database at one sample. */
export interface TableSample {
  /**
   * The rows the table holds: rows inserted minus rows deleted since the database was created
   * (`n_tup_ins - n_tup_del`), read without scanning the table. Exact for a soak's tables, which
   * start empty and in which no insert is rolled back; files written before 2026-12-07 hold `count(*)`.
   */
  rows: number;
  /**
   * pg_stat_user_tables' `n_live_tup`: an estimate, which each (auto)vacuum resets from the pages it
   * scanned, so it can stray from `rows` on a table that is both inserted into and deleted from.
   */
  liveTuples: number;
  /** `n_dead_tup` when the sample was taken. */
  deadTuples: number;
  /**
   * The mean of `n_dead_tup` read every few seconds since the previous sample (reading-means.ts
   * says why one reading per sample is not enough); absent in files written before it was read.
   */
  deadTuplesMean?: number;
  autovacuumCount: number;
}

/** A table's dead tuples over a sample's interval: the mean of the readings in it, else the one reading of the sample. */
export function sampleDeadTuples(sample: SoakSample, table: string): number | undefined {
  return sample.tables[table]?.deadTuplesMean ?? sample.tables[table]?.deadTuples;
}

export interface SoakSample {
  atMinutes: number;
  /** Orders finished since the previous sample, and their created → final p99 (ms). */
  finished: number;
  p99Ms: number;
  rssMb: Record<string, number>;
  /** By `<database role>.<table>`: `orders.outbox_messages`, `inventory.inbox_messages`, ... */
  tables: Record<string, TableSample>;
  /** What the server wrote since the previous sample; absent in files written before it was read. */
  server?: ServerWrites;
  /**
   * CPU milliseconds per order finished since the previous sample: the loop's processes, each
   * (`orders`, `inventory`, `loyalty`, `postgres`, `kafka`) and in total, and the bench apart. Says
   * which process a stretch of higher p99 made busier; absent in files written before it was read.
   */
  cpu?: Pick<LoopCpu, 'totalMsPerOrder' | 'byProcess' | 'loadGeneratorMsPerOrder'>;
}

export interface SoakResults {
  startedAt: string;
  finishedAt: string;
  minutes: number;
  offeredPerSec: number;
  /** Where `offeredPerSec` came from: `70 % of --rate=200`, or of the last run's sustained maximum. */
  rateSource: string;
  /** What the bench set in every app's environment (shedding on, and BENCH_APP_ENV): the settings the figures are of. */
  appEnv: Record<string, string>;
  /** Whether autovacuum ran during the soak: without it, dead tuples only grow and the run is not a soak. */
  autovacuum: AutovacuumState;
  /** False when autovacuum could not be turned on: the samples are kept, but this is no soak. */
  isSoak: boolean;
  sent: number;
  accepted: number;
  failedRequests: number;
  /** Requests answered 503 SERVER.OVERLOADED (load shedding); part of failedRequests. */
  shedRequests: number;
  /** Accepted orders not final once the soak settled. */
  unfinished: number;
  samples: SoakSample[];
  /** Each figure's last five minutes against its first five after the warm-up; absent when a window held no sample. */
  drift?: SoakDrift;
  notes: string[];
}

/** Every problem with `value` as {@link SoakResults}, by path; empty when it has the shape. */
export function soakShapeProblems(value: unknown): string[] {
  const problems: string[] = [];
  // The file as read back: every member may be missing or of another type, hence the loose type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const record = value as Record<string, any>;
  for (const key of ['minutes', 'offeredPerSec', 'sent', 'accepted', 'shedRequests', 'unfinished'])
    if (typeof record?.[key] !== 'number') problems.push(`${key} is not a number`);
  if (typeof record?.isSoak !== 'boolean') problems.push('isSoak is not a boolean');
  if (typeof record?.autovacuum?.on !== 'boolean') problems.push('autovacuum.on is not a boolean');
  if (!Array.isArray(record?.samples) || record.samples.length === 0) problems.push('samples is not a non-empty array');
  else
    record.samples.forEach((sample: { atMinutes?: unknown; rssMb?: unknown; tables?: object }, index: number) => {
      if (typeof sample?.atMinutes !== 'number') problems.push(`samples.${index}.atMinutes is not a number`);
      if (!sample?.rssMb || typeof sample.rssMb !== 'object') problems.push(`samples.${index}.rssMb is missing`);
      if (!sample?.tables || Object.keys(sample.tables).length === 0) problems.push(`samples.${index}.tables is empty`);
    });
  return problems;
}
