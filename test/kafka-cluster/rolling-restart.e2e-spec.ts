import { describe, expect, it } from '@jest/globals';
import { LocalKafkaCluster } from '@tools/local-stack';
import { publishedAtLeast, runBrokerCrashScenario } from './broker-crash-scenario.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * A rolling restart of all three nodes, one at a time, under load, as a broker
 * upgrade or a configuration change does it: each node stops cleanly (SIGTERM: it hands its
 * leaderships over), starts again, and the next waits until the cluster has three brokers again.
 */
describe('broker crash: rolling restart of all three brokers under load (3-node cluster, real processes)', () => {
  it('when every node restarts in turn under load, then once quiet every invariant holds', async () => {
    const result = await runBrokerCrashScenario({
      // A slow rate, so the load spans the three restarts (each a JVM start and a rejoin).
      orders: 150,
      rate: 2,
      seed: SEED,
      action: async (cluster, log) => {
        await publishedAtLeast(cluster, 20);
        const kafka = cluster.broker as LocalKafkaCluster;
        for (const node of kafka.nodes) {
          await kafka.stopNode(node);
          log(`node ${node} stopped`);
          await kafka.resume(node);
          await kafka.waitForBrokers(kafka.nodes.length);
          log(`node ${node} back; ${kafka.nodes.length} brokers registered`);
        }
      },
    });
    console.log(`rolling restart (seed ${SEED})\n${result.log.join('\n')}`);
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
    expect(result.outcomes.filter((outcome) => outcome.orderIds.length > 0).length).toBeGreaterThan(result.outcomes.length * 0.9);
  }, 900_000);
});
