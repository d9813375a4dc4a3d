import { describe, expect, it } from '@jest/globals';
import { failpointSleepMarker } from '@libs/failpoints';
import { RelayFailpoints } from '@libs/outbox';
import { queryTestDatabase, waitFor } from '@tools/local-stack';
import { runPartitionScenario } from './partition-scenario.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** `DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS` here: the bound on how long a cut-off leader's lock holds the other relay back. */
const IDLE_IN_TRANSACTION_MS = 5000;
/** What the other relay may take beyond it: its poll interval, a retry backoff, a batch, on a loaded 2-core machine. */
const SLACK_MS = 15_000;

/**
 * The orders relay's leader holds the advisory lock inside its transaction (a sleep failpoint
 * keeps it between claiming rows and publishing them) when its link to Postgres is cut. Postgres
 * never hears from it again: no FIN, no reset. `idle_in_transaction_session_timeout` ends the
 * session on the server after `DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`, the transaction rolls
 * back, the lock is free, and the other orders replica's relay publishes. The leader's claimed
 * rows were never marked, so they are published by whoever comes next; nothing is lost or doubled.
 */
describe("partition: the orders relay's leader cut from Postgres mid-transaction (real processes, network namespaces)", () => {
  it('when the leader is cut inside its transaction, then the other relay publishes within the idle-in-transaction bound and once quiet every invariant holds', async () => {
    const started = Date.now();
    let takeoverMs = 0;
    const result = await runPartitionScenario({
      orders: 48,
      rate: 6,
      seed: SEED,
      kafkaNodes: 1,
      env: { DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(IDLE_IN_TRANSACTION_MS) },
      failpoints: { 'orders-1': [`${RelayFailpoints.afterClaimBeforePublish}=sleep(60000)`] },
      action: async (cluster, lab, log) => {
        const orders1 = cluster.processes['orders-1'];
        await orders1.process.waitForOutput(failpointSleepMarker(RelayFailpoints.afterClaimBeforePublish), 120_000);
        const cut = await lab.cut(cluster.network!.placements['orders-1'], [lab.gateway], 5432);
        log('orders-1 (relay leader, inside its transaction) cut from Postgres');
        takeoverMs = await waitFor(
          async () => {
            const [{ n }] = await queryTestDatabase<{ n: number }>(
              cluster.serverUrl,
              cluster.databases.orders,
              `SELECT count(*)::int AS n FROM outbox_messages WHERE published_at > to_timestamp(${cut.since / 1000})`,
            );
            return n > 0 ? Date.now() - cut.since : undefined;
          },
          { timeoutMs: 120_000, intervalMs: 100, description: 'a row published by the other relay' },
        );
        log(`orders-2's relay published ${takeoverMs} ms after the cut`);
        await cut.heal();
        log('healed');
      },
    });
    console.log(
      `relay cut from Postgres (seed ${SEED}): takeover ${takeoverMs} ms, test ${Date.now() - started} ms\n${result.log.join('\n')}`,
    );
    expect(takeoverMs).toBeLessThan(IDLE_IN_TRANSACTION_MS + SLACK_MS);
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
  }, 600_000);
});
