import { expect } from '@jest/globals';
import type { BrokerCrashResult } from './broker-crash-scenario.js';

/**
 * What the clients may add to the brokers' own failover: a SIGKILLed node is fenced after the
 * cluster's `broker.session.timeout.ms` and its successor elected; after that, every client must
 * be on the new leader or coordinator within this long (metadata refresh, retry backoff, group
 * rejoin). The client settings in libs/kafka/src/kafka-client-timing.ts keep it there.
 */
const CLIENT_FAILOVER_ALLOWANCE_MS = 4000;

/**
 * A failover is in seconds: no stretch without an answered order longer than the brokers' failover
 * (fencing and election, measured in the run) plus {@link CLIENT_FAILOVER_ALLOWANCE_MS}, and no
 * order slower than that plus the run's own p99 before the fault (an order placed just before the
 * kill waits its normal time as well as the failover).
 */
export function expectFailoverWithinBound(result: BrokerCrashResult): void {
  const bound = Math.round(result.brokerFailoverMs) + CLIENT_FAILOVER_ALLOWANCE_MS;
  const { longestGapMs, maxEndToEndMs, p99BeforeFaultMs } = result.stall;
  expect(Number.isFinite(result.brokerFailoverMs)).toBe(true);
  expect({ longestGapMs, withinMs: bound, ok: longestGapMs <= bound }).toEqual({ longestGapMs, withinMs: bound, ok: true });
  const slowest = bound + p99BeforeFaultMs;
  expect({ maxEndToEndMs, withinMs: slowest, ok: maxEndToEndMs <= slowest }).toEqual({ maxEndToEndMs, withinMs: slowest, ok: true });
}
