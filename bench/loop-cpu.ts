// CPU per order of the whole loop: each app, Postgres and the broker, with the load
// generator apart. Pure: the sampler in process-usage.ts measures, this turns its figures into the
// per-order costs and the ceiling they imply.

/** `cpu` in bench/results/latest.json: milliseconds of CPU per finished order. */
export interface LoopCpu {
  /** Every process of the loop but the load generator: the figure to halve. */
  totalMsPerOrder: number;
  /** Per process group: `orders`, `inventory`, `loyalty`, `postgres`, `kafka`. */
  byProcess: Record<string, number>;
  /** The bench process itself (open-model load and its observers), apart from the total. */
  loadGeneratorMsPerOrder: number;
  /** cores × 1000 / totalMsPerOrder: the orders per second the machine allows at this cost. */
  ceilingPerSec: number;
  cores: number;
  /** Orders the run finished (the divisor). */
  orders: number;
}

/**
 * Per-order CPU from the groups' CPU milliseconds over a run that finished `orders` orders;
 * `loadGeneratorGroup` is reported apart and left out of the total.
 */
export function loopCpu(cpuMsByGroup: Record<string, number>, orders: number, cores: number, loadGeneratorGroup: string): LoopCpu {
  const divisor = Math.max(1, orders);
  const byProcess = Object.fromEntries(
    Object.entries(cpuMsByGroup)
      .filter(([group]) => group !== loadGeneratorGroup)
      .map(([group, ms]) => [group, ms / divisor]),
  );
  const totalMsPerOrder = Object.values(byProcess).reduce((sum, value) => sum + value, 0);
  return {
    totalMsPerOrder,
    byProcess,
    loadGeneratorMsPerOrder: (cpuMsByGroup[loadGeneratorGroup] ?? Number.NaN) / divisor,
    ceilingPerSec: totalMsPerOrder > 0 ? (cores * 1000) / totalMsPerOrder : Number.NaN,
    cores,
    orders,
  };
}
