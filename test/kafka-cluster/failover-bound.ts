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
 * single order slower than that bound plus the run's own p99 before the fault (the time an order
 * takes anyway), and no consumer crashed.
 *
 * The slowest order used to lag the loop by seconds (9.2-11.6 s against bounds of 7.7-10.2 s on
 * CI): kafkajs consumers crashed in the failover (their 5-retry default, and heartbeats kept going
 * to a dead coordinator) and rejoined as new members, which the coordinator held until the old
 * members' sessions expired. kafkaServerOptions gives the consumer the client's retry policy, and
 * libs/kafka/src/coordinator-rediscovery.ts finds the new coordinator. Later a slowest order still
 * missed its bound on CI (10.8 s against 8.5 s, 7 s of it in inventory after its OrderCreated was
 * published): the consumer's fetch loop waited for the new coordinator (its heartbeat and the
 * inbox's offset commit) and the runner stopped every fetcher while one fetched from the dead
 * leader. Neither waits now (docs/kafka-cluster.md).
 */
export function expectFailoverWithinBound(result: BrokerCrashResult, log: (line: string) => void = console.log): void {
  const bound = Math.round(result.brokerFailoverMs) + CLIENT_FAILOVER_ALLOWANCE_MS;
  const { longestGapMs, maxEndToEndMs, p99BeforeFaultMs } = result.stall;
  const slowest = bound + Math.round(p99BeforeFaultMs);
  log(
    `longest stretch without an answered order ${Math.round(longestGapMs)} ms (bound ${bound} ms); slowest order ${Math.round(maxEndToEndMs)} ms (bound ${slowest} ms)`,
  );
  expect(Number.isFinite(result.brokerFailoverMs)).toBe(true);
  expect({ longestGapMs, withinMs: bound, ok: longestGapMs <= bound }).toEqual({ longestGapMs, withinMs: bound, ok: true });
  expect({ maxEndToEndMs, withinMs: slowest, ok: maxEndToEndMs <= slowest }).toEqual({ maxEndToEndMs, withinMs: slowest, ok: true });
  // No consumer crashed into a rejoin as a new member, which the coordinator holds until the old
  // member's session expires (kafkajs' consumer retry default, or a dead coordinator kept).
  expect({ consumerRestarts: result.consumerRestarts }).toEqual({ consumerRestarts: 0 });
}
