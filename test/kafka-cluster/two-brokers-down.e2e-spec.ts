import { describe, expect, it } from '@jest/globals';
import { queryTestDatabase, waitFor } from '@tools/local-stack';
import { publishedAtLeast, runBrokerCrashScenario } from './broker-crash-scenario.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Orders the outage must accept into the outbox before the nodes return: the observed outage, not a timed one. */
const ACCEPTED_DURING_OUTAGE = 15;
const OUTAGE_DEADLINE_MS = 60_000;

/**
 * Two of three nodes are down for a while. No partition has the two in-sync
 * replicas acks=all needs (and the controller quorum is gone), so every write is refused; orders
 * must still be accepted into the outbox, and the backlog must drain once the nodes return.
 */
describe('broker crash: two of three brokers down for a while (3-node cluster, real processes)', () => {
  it('when two brokers are down, then orders are still accepted into the outbox, and once they return the backlog drains and every invariant holds', async () => {
    let acceptedDuringOutage = 0;
    let pendingAtEndOfOutage = 0;
    const result = await runBrokerCrashScenario({
      orders: 150,
      rate: 5,
      seed: SEED,
      action: async (cluster, log) => {
        await publishedAtLeast(cluster, 20);
        const count = async (sql: string) =>
          (await queryTestDatabase<{ n: number }>(cluster.serverUrl, cluster.databases.orders, sql))[0].n;
        const ordersBefore = await count('SELECT count(*)::int AS n FROM orders');
        await Promise.all([cluster.broker.kill(1), cluster.broker.kill(2)]);
        log('SIGKILL nodes 1 and 2');
        const outageStart = Date.now();
        await waitFor(
          async () =>
            (await count('SELECT count(*)::int AS n FROM orders')) - ordersBefore >= ACCEPTED_DURING_OUTAGE &&
            (await count('SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL')) > 0,
          {
            timeoutMs: OUTAGE_DEADLINE_MS,
            intervalMs: 250,
            description: `${ACCEPTED_DURING_OUTAGE} orders accepted into the outbox with two nodes down`,
          },
        );
        const outageMs = Date.now() - outageStart;
        acceptedDuringOutage = (await count('SELECT count(*)::int AS n FROM orders')) - ordersBefore;
        pendingAtEndOfOutage = await count('SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
        log(`after ${outageMs} ms: ${acceptedDuringOutage} orders accepted, ${pendingAtEndOfOutage} outbox rows pending`);
        await Promise.all([cluster.broker.resume(1), cluster.broker.resume(2)]);
        log('nodes 1 and 2 back');
      },
    });
    console.log(`two brokers down (seed ${SEED}): ${acceptedDuringOutage} orders accepted during the outage\n${result.log.join('\n')}`);
    expect(acceptedDuringOutage).toBeGreaterThan(10);
    expect(pendingAtEndOfOutage).toBeGreaterThan(0);
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
  }, 900_000);
});
