import { describe, expect, it } from '@jest/globals';
import { claimLeaseMs } from './command.statements.js';

describe('claimLeaseMs (how long a dispatcher holds the commands it claimed)', () => {
  it('when a batch needs several waves of calls, then the lease covers every wave plus one timeout of margin', () => {
    // 50 commands, 8 at a time: 7 waves of at most 3 s each, plus 3 s.
    expect(claimLeaseMs({ batchSize: 50, concurrency: 8, requestTimeoutMs: 3000 })).toBe(24_000);
  });

  it('when the whole batch is sent at once, then the lease is two request timeouts', () => {
    expect(claimLeaseMs({ batchSize: 10, concurrency: 10, requestTimeoutMs: 2000 })).toBe(4000);
  });
});
