/** One order as the orders database saw it: when it was placed, when it was answered (RESERVED or REJECTED). */
export interface CompletedOrder {
  createdAtMs: number;
  finalAtMs: number;
}

/** How long a fault held the loop up, read from the orders it completed. */
export interface FailoverStall {
  /** Longest stretch, while orders were still being placed, in which no order was answered (ms). */
  longestGapMs: number;
  /** Slowest order from its placement to its answer (ms). */
  maxEndToEndMs: number;
  /** p99 of placement to answer of the orders placed before the fault: the run's normal tail (ms). */
  p99BeforeFaultMs: number;
  /** Orders the figures are taken from. */
  orders: number;
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

/**
 * The stall a fault at `faultAtMs` caused. A gap counts only while some order was owed an answer
 * (placed and not yet answered): after the load, no answer is due and a quiet tail is no stall;
 * an order placed during the stall that is answered only after it still shows the whole wait.
 */
export function failoverStall(orders: readonly CompletedOrder[], faultAtMs: number): FailoverStall {
  if (orders.length === 0) return { longestGapMs: 0, maxEndToEndMs: 0, p99BeforeFaultMs: 0, orders: 0 };
  const byAnswer = [...orders].sort((a, b) => a.finalAtMs - b.finalAtMs);
  // earliestOwed[i]: the earliest placement among the orders answered at or after the i-th answer.
  const earliestOwed = new Array<number>(byAnswer.length);
  for (let i = byAnswer.length - 1, earliest = Infinity; i >= 0; i--) {
    earliest = Math.min(earliest, byAnswer[i].createdAtMs);
    earliestOwed[i] = earliest;
  }
  let longestGapMs = 0;
  let previousAnswer = -Infinity;
  byAnswer.forEach((order, i) => {
    longestGapMs = Math.max(longestGapMs, order.finalAtMs - Math.max(previousAnswer, earliestOwed[i]));
    previousAnswer = order.finalAtMs;
  });
  const endToEnd = (order: CompletedOrder) => order.finalAtMs - order.createdAtMs;
  const before = orders
    .filter((order) => order.finalAtMs < faultAtMs)
    .map(endToEnd)
    .sort((a, b) => a - b);
  return {
    longestGapMs,
    maxEndToEndMs: Math.max(...orders.map(endToEnd)),
    p99BeforeFaultMs: percentile(before, 0.99),
    orders: orders.length,
  };
}
