// Means of figures read more often than the soak samples. Pure, unit-tested in reading-means.spec.ts.

/**
 * Dead tuples are read this often between two soak samples. Autovacuum draws a saw-tooth whose
 * period is `autovacuum_naptime` (60 s by default), two sample intervals: one reading per sample
 * always lands at the same phase of it, so its mean depends on where the vacuums fall against the
 * samples (one soak's orders outbox read 600 and 6,900 alternately for six minutes, then 5,500 and
 * 11,800 after one vacuum came late: the same saw-tooth, a mean twice as high).
 */
export const DEAD_TUPLE_READ_INTERVAL_MS = 5_000;

/** Sums readings per name and hands out their means, one interval at a time. */
export class ReadingMeans {
  private sums = new Map<string, { total: number; count: number }>();

  add(readings: Record<string, number>): void {
    for (const [name, value] of Object.entries(readings)) {
      const sum = this.sums.get(name) ?? { total: 0, count: 0 };
      sum.total += value;
      sum.count += 1;
      this.sums.set(name, sum);
    }
  }

  /** The mean of each name's readings since the last call; the next interval starts empty. */
  take(): Record<string, number> {
    const means = Object.fromEntries([...this.sums].map(([name, sum]) => [name, sum.total / sum.count]));
    this.sums = new Map();
    return means;
  }
}
