import { describe, expect, it } from '@jest/globals';
import { Topics } from '@app/contracts';
import { type LocalKafkaCluster, queryTestDatabase, waitFor } from '@tools/local-stack';
import { readWholeTopic } from '../chaos/topic-snapshot.js';
import { runPartitionScenario } from './partition-scenario.js';
import { publishedAtLeast } from '../kafka-cluster/broker-crash-scenario.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * The isolated leader: the node leading the relay's partition loses the other two nodes while
 * every client still reaches it. It cannot get an acks=all write acknowledged (min.insync.replicas
 * 2, no follower can fetch from it), the controller fences it after the broker session and elects
 * a leader among the other two, and the clients move there. Nothing the relay saw acknowledged
 * may be missing from the topic afterwards.
 */
describe('partition: one broker of three cut from the other two, still reachable by clients (real processes, network namespaces)', () => {
  it('when the leader of the orders partition is isolated under load, then a new leader takes over, no acknowledged write is lost and every invariant holds', async () => {
    const started = Date.now();
    let failoverMs = 0;
    let published: string[] = [];
    let onTopic = new Set<string>();
    const result = await runPartitionScenario({
      orders: 90,
      rate: 5,
      seed: SEED,
      kafkaNodes: 3,
      env: { KAFKA_SESSION_TIMEOUT_MS: '6000' },
      action: async (cluster, lab, log) => {
        const broker = cluster.broker as LocalKafkaCluster;
        await publishedAtLeast(cluster, 10);
        const leader = await waitFor(() => broker.leaderOf(Topics.orders, 0), { description: `leader of ${Topics.orders}[0]` });
        const others = broker.nodes.filter((node) => node !== leader);
        const cut = await lab.cut(
          broker.placements[leader - 1],
          others.map((node) => broker.placements[node - 1].address),
        );
        log(`node ${leader} (leader of ${Topics.orders}[0]) cut from nodes ${others.join(', ')}`);
        const next = await waitFor(
          async () => {
            const now = await broker.leaderOf(Topics.orders, 0, others);
            return now !== undefined && now !== leader ? now : undefined;
          },
          { timeoutMs: 90_000, intervalMs: 200, description: `a new leader of ${Topics.orders}[0] among nodes ${others.join(', ')}` },
        );
        failoverMs = Date.now() - cut.since;
        log(`node ${next} leads ${Topics.orders}[0] after ${failoverMs} ms`);
        // The relay publishes to the new leader while the old one is still cut off. Rows written
        // after the cut: no broker could have acknowledged them before it, whenever the load ends.
        const cutAt = new Date(cut.since).toISOString();
        await waitFor(
          async () =>
            Number(
              (
                await queryTestDatabase(
                  cluster.serverUrl,
                  cluster.databases.orders,
                  `SELECT count(*)::int AS n FROM outbox_messages WHERE created_at > '${cutAt}' AND published_at IS NOT NULL`,
                )
              )[0].n,
            ) >= 5,
          { timeoutMs: 120_000, intervalMs: 250, description: 'orders outbox rows written after the cut and published before the heal' },
        );
        log(`5 rows written after the cut published ${Date.now() - cut.since} ms after it`);
        await cut.heal();
        log('healed');
      },
      inspect: async (cluster) => {
        const rows = await queryTestDatabase<{ id: string }>(
          cluster.serverUrl,
          cluster.databases.orders,
          "SELECT headers->>'message-id' AS id FROM outbox_messages WHERE published_at IS NOT NULL",
        );
        published = rows.map((row) => row.id);
        onTopic = new Set((await readWholeTopic(cluster.broker.brokers, Topics.orders)).map((record) => record.headers['message-id']));
      },
    });
    console.log(`isolated broker (seed ${SEED}): failover ${failoverMs} ms, test ${Date.now() - started} ms\n${result.log.join('\n')}`);
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
    expect(published.length).toBeGreaterThan(0);
    expect(published.filter((id) => !onTopic.has(id))).toEqual([]);
  }, 600_000);
});
