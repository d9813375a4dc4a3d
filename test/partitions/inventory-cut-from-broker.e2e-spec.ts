import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@tools/local-stack';
import { handlesMore, runPartitionScenario } from './partition-scenario.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** The consumers' session timeout here (the smallest the apps accept): the cut outlasts it. */
const SESSION_TIMEOUT_MS = 6000;

/**
 * A link, not a process: inventory-1 stays alive but every packet between it and the broker is
 * dropped for longer than its consumer session. The coordinator expires it and hands its
 * partitions to inventory-2, which goes on; inventory-1 is a zombie that may still hold fetched
 * records and try to commit them. When the link returns its late commits are refused (it is no
 * longer a member) and whatever it handled twice is absorbed by the inbox: nothing is doubled.
 */
describe('partition: an inventory replica cut from the broker for longer than its session (real processes, network namespaces)', () => {
  it('when inventory-1 is cut off and healed under load, then inventory-2 takes its partitions and once quiet every invariant holds', async () => {
    const started = Date.now();
    let cutMs = 0;
    const result = await runPartitionScenario({
      orders: 72,
      rate: 6,
      seed: SEED,
      kafkaNodes: 1,
      env: { KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS) },
      action: async (cluster, lab, log, loadEnded) => {
        await handlesMore(cluster, 'inventory-1', 3);
        const brokers = cluster.broker.placements!.map((placement) => placement.address);
        const cut = await lab.cut(cluster.network!.placements['inventory-1'], brokers);
        log(`inventory-1 cut from the broker`);
        // inventory-2 handles orders while inventory-1 cannot: the partitions moved.
        await handlesMore(cluster, 'inventory-2', 10);
        // The fault itself: the cut lasts past the session timeout, so the zombie's group membership expires.
        const until = cut.since + SESSION_TIMEOUT_MS * 1.25;
        await waitFor(() => Date.now() >= until, {
          timeoutMs: SESSION_TIMEOUT_MS * 2,
          intervalMs: 100,
          description: 'the cut to outlast the session timeout',
        });
        cutMs = Date.now() - cut.since;
        await cut.heal();
        log(`healed after ${cutMs} ms`);
        // Only logged, and only while orders still come: once the load has ended a wait here was dead time (15 s a run).
        const rejoined = await handlesMore(cluster, 'inventory-1', 1, 15_000, loadEnded).catch(() => false);
        log(rejoined ? 'inventory-1 handles messages again' : 'inventory-1 handled nothing more before the load ended');
      },
    });
    console.log(`inventory cut from broker (seed ${SEED}): cut ${cutMs} ms, test ${Date.now() - started} ms\n${result.log.join('\n')}`);
    expect(cutMs).toBeGreaterThan(SESSION_TIMEOUT_MS);
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
    expect(result.outcomes.filter((outcome) => outcome.orderIds.length > 0).length).toBeGreaterThan(result.outcomes.length * 0.9);
  }, 600_000);
});
