import { describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { waitFor } from '@tools/local-stack';
import { leaderMovedFrom, publishedAtLeast, runBrokerCrashScenario } from './broker-crash-scenario.js';
import { expectFailoverWithinBound } from './failover-bound.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * The leader of a partition the orders relay writes to is SIGKILLed while the
 * relay publishes (the load keeps it busy: every batch holds rows for every partition). The relay
 * must back off and republish to the new leader, never mark a row published that no in-sync
 * replica kept, and every consumer must carry on.
 */
describe("broker crash: the leader of the relay's partition is SIGKILLed mid-batch (3-node cluster, real processes)", () => {
  it('when the partition leader dies under load, then a new leader takes over and once quiet every invariant holds', async () => {
    let killedAt = 0;
    let failoverMs = 0;
    const result = await runBrokerCrashScenario({
      orders: 150,
      rate: 6,
      seed: SEED,
      action: async (cluster, log, clock) => {
        await publishedAtLeast(cluster, 20);
        const leader = await waitFor(() => cluster.broker.leaderOf(Topics.orders, 0), { description: `leader of ${Topics.orders}[0]` });
        killedAt = Date.now();
        clock.faultNow();
        await cluster.broker.kill(leader);
        log(`SIGKILL node ${leader}, leader of ${Topics.orders}[0]`);
        const next = await leaderMovedFrom(cluster, Topics.orders, 0, leader);
        clock.brokersRecovered();
        failoverMs = Date.now() - killedAt;
        log(`node ${next} leads ${Topics.orders}[0] after ${failoverMs} ms`);
        await cluster.broker.resume(leader);
        log(`node ${leader} back`);
      },
    });
    console.log(
      `leader kill (seed ${SEED}): failover ${failoverMs} ms, worst outbox publish latency ${result.worstPublishLatencyMs} ms\n${result.log.join('\n')}`,
    );
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
    expectFailoverWithinBound(result);
    expect(result.outcomes.filter((outcome) => outcome.orderIds.length > 0).length).toBeGreaterThan(result.outcomes.length * 0.9);
  }, 900_000);
});
