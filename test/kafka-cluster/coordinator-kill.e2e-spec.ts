import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@tools/local-stack';
import { inventoryHandledAtLeast, leaderMovedFrom, runBrokerCrashScenario } from './broker-crash-scenario.js';
import { expectFailoverWithinBound } from './failover-bound.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** The local cluster's offsets topic has one partition: its leader coordinates every group. */
const OFFSETS = '__consumer_offsets';

/**
 * The group coordinator of inventory's consumer group is SIGKILLed while
 * inventory consumes and commits offsets under load. Commits fail (NOT_COORDINATOR, coordinator
 * not available, connection refused) and the members must find the new coordinator and rejoin;
 * records whose effects committed but whose offsets did not are redelivered and skipped by the
 * inbox. The members find the new coordinator on their own (libs/kafka/src/coordinator-rediscovery.ts).
 */
describe("broker crash: inventory's group coordinator is SIGKILLed while it commits (3-node cluster, real processes)", () => {
  it('when the coordinator dies under load, then the group rejoins on the new one and once quiet every invariant holds', async () => {
    let failoverMs = 0;
    const result = await runBrokerCrashScenario({
      orders: 150,
      rate: 6,
      seed: SEED,
      action: async (cluster, log, clock) => {
        await inventoryHandledAtLeast(cluster, 20);
        const coordinator = await waitFor(() => cluster.broker.leaderOf(OFFSETS, 0), { description: 'the group coordinator' });
        const killedAt = Date.now();
        clock.faultNow();
        await cluster.broker.kill(coordinator);
        log(`SIGKILL node ${coordinator}, the group coordinator`);
        const next = await leaderMovedFrom(cluster, OFFSETS, 0, coordinator);
        clock.brokersRecovered();
        failoverMs = Date.now() - killedAt;
        log(`node ${next} coordinates after ${failoverMs} ms`);
        await cluster.broker.resume(coordinator);
        log(`node ${coordinator} back`);
      },
    });
    console.log(`coordinator kill (seed ${SEED}): failover ${failoverMs} ms\n${result.log.join('\n')}`);
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
    expectFailoverWithinBound(result);
    expect(result.facts.reservations.reserved + result.facts.reservations.released).toBeGreaterThan(0);
  }, 900_000);
});
