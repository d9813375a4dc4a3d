import { describe, expect, it } from '@jest/globals';
import { failoverStall } from './failover-stall.js';

describe('failoverStall', () => {
  it('when answers flow steadily, then the longest gap is the longest any order waited with no answer given meanwhile', () => {
    const orders = [0, 100, 200, 300].map((at) => ({ createdAtMs: at, finalAtMs: at + 50 }));
    expect(failoverStall(orders, 1_000)).toEqual({ longestGapMs: 50, maxEndToEndMs: 50, p99BeforeFaultMs: 50, orders: 4 });
  });

  it('when answers stop at a fault and resume later, then the gap runs from the first order owed after the last answer to the next answer', () => {
    const orders = [
      { createdAtMs: 0, finalAtMs: 20 },
      { createdAtMs: 100, finalAtMs: 120 },
      { createdAtMs: 200, finalAtMs: 5_000 },
      { createdAtMs: 300, finalAtMs: 5_010 },
    ];
    const stall = failoverStall(orders, 150);
    expect(stall.longestGapMs).toBe(5_000 - 200);
    expect(stall.maxEndToEndMs).toBe(4_800);
    expect(stall.p99BeforeFaultMs).toBe(20);
  });

  it('when nothing is owed between two answers, then the quiet time is no stall', () => {
    const orders = [
      { createdAtMs: 0, finalAtMs: 10 },
      { createdAtMs: 9_000, finalAtMs: 9_030 },
    ];
    expect(failoverStall(orders, 0).longestGapMs).toBe(30);
  });

  it('when an order placed during a stall is answered after it, then its whole wait counts', () => {
    const orders = [
      { createdAtMs: 0, finalAtMs: 10 },
      { createdAtMs: 2_000, finalAtMs: 8_000 },
    ];
    expect(failoverStall(orders, 1_000).longestGapMs).toBe(6_000);
  });

  it('when no order completed, then every figure is zero', () => {
    expect(failoverStall([], 0)).toEqual({ longestGapMs: 0, maxEndToEndMs: 0, p99BeforeFaultMs: 0, orders: 0 });
  });
});
