// Resident memory of processes with nothing to do: what a running service costs before its first
// order. Used by the suite (each app before the end-to-end load) and by bench/idle-memory.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from './percentiles.js';
import { rssMb } from './process-usage.js';

export interface IdleRssOptions {
  /** How long the processes are left alone before the first reading. */
  settleMs: number;
  /** Readings per process; the median is kept, so one reading during a collection does not set it. */
  samples: number;
  intervalMs: number;
}

/** How the suite and bench/idle-memory.ts read an idle process, so that their figures compare. */
export const IDLE_RSS_READINGS = { samples: 10, intervalMs: 500 } as const;

/** The median VmRSS, MB, of each named process over `samples` readings after `settleMs`; NaN for one that is gone. */
export async function idleRssMb<Name extends string>(pids: Record<Name, number>, options: IdleRssOptions): Promise<Record<Name, number>> {
  await sleep(options.settleMs);
  const readings = Object.fromEntries(Object.keys(pids).map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (let sample = 0; sample < options.samples; sample += 1) {
    if (sample > 0) await sleep(options.intervalMs);
    for (const name of Object.keys(pids) as Name[]) readings[name].push(rssMb(pids[name]));
  }
  return Object.fromEntries(
    (Object.entries(readings) as [Name, number[]][]).map(([name, values]) => [
      name,
      values.some((value) => !Number.isFinite(value)) ? Number.NaN : median(values),
    ]),
  ) as Record<Name, number>;
}
