// Latency summaries for the benchmark suite. Pure: no I/O, unit-tested in its own .spec.ts.

/** p50/p95/p99 and friends of one set of samples, in the samples' unit (milliseconds here). */
export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * The nearest-rank percentile (`p` in 0..100) of `values`: the smallest sample such that at least
 * p % of the samples are at or below it. Nearest rank, not interpolation, so every reported figure
 * is a latency some request really had. `NaN` for no samples.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (p < 0 || p > 100) throw new Error(`percentile ${p} is outside 0..100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** {@link LatencySummary} of `values`; every field `NaN` (count 0) when there are none. */
export function summarizeLatencies(values: readonly number[]): LatencySummary {
  return {
    count: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
  };
}

/** The median of `values` (mean of the two middle ones for an even count); `NaN` for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
