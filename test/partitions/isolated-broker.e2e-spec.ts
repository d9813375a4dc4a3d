import { describe, expect, it } from '@jest/globals';
import { Topics } from '@libs/contracts';
import { partitionOfKey } from '@test/fixtures';
import { type LocalKafkaCluster, queryTestDatabase, waitFor } from '@tools/local-stack';
import { readWholeTopic } from '../chaos/topic-snapshot.js';
import { runPartitionScenario } from './partition-scenario.js';
import { publishedAtLeast } from '../kafka-cluster/broker-crash-scenario.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * The isolated leader: a node leading one of the relay's partitions loses the other two nodes
 * while every client still reaches it. It cannot get an acks=all write acknowledged
 * (min.insync.replicas 2, no follower can fetch from it), the controller fences it after the
 * broker session and elects a leader among the other two, and the clients move there. The node
 * cut is the first of every client's `KAFKA_BROKERS`: cut off, it still answers metadata requests
 * with the leaderships it held, and each producer the relay rebuilt after a failed send, asking
 * it first (kafkajs' own choice), started from them again. Nothing the relay saw acknowledged may
 * be missing from the topic afterwards.
 */
describe('partition: one broker of three cut from the other two, still reachable by clients (real processes, network namespaces)', () => {
  it("when the first broker of every client's list leads an orders partition and is isolated under load, then a new leader takes over, the relay publishes that partition's new rows there, no acknowledged write is lost and every invariant holds", async () => {
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
        // Every app is given the nodes in this order (KAFKA_BROKERS).
        const first = broker.nodes[0];
        const leaders = await broker.leadersOf(Topics.orders);
        // Three partitions striped over three nodes at creation: each node leads one.
        const partition = [...leaders].find(([, leader]) => leader === first)?.[0];
        if (partition === undefined)
          throw new Error(`node ${first} leads no partition of ${Topics.orders}: ${JSON.stringify([...leaders])}`);
        const others = broker.nodes.filter((node) => node !== first);
        const cut = await lab.cut(
          broker.placements[first - 1],
          others.map((node) => broker.placements[node - 1].address),
        );
        log(`node ${first} (first of KAFKA_BROKERS, leader of ${Topics.orders}[${partition}]) cut from nodes ${others.join(', ')}`);
        const next = await waitFor(
          async () => {
            const now = await broker.leaderOf(Topics.orders, partition, others);
            return now !== undefined && now !== first ? now : undefined;
          },
          {
            timeoutMs: 90_000,
            intervalMs: 200,
            description: `a new leader of ${Topics.orders}[${partition}] among nodes ${others.join(', ')}`,
          },
        );
        failoverMs = Date.now() - cut.since;
        log(`node ${next} leads ${Topics.orders}[${partition}] after ${failoverMs} ms`);
        // The relay publishes to the new leader while the old one is still cut off. Rows written
        // after the cut: no broker could have acknowledged them before it, whenever the load ends.
        const cutAt = new Date(cut.since).toISOString();
        await waitFor(
          async () => {
            const rows = await queryTestDatabase<{ key: string }>(
              cluster.serverUrl,
              cluster.databases.orders,
              `SELECT key FROM outbox_messages WHERE topic = '${Topics.orders}' AND created_at > '${cutAt}' AND published_at IS NOT NULL`,
            );
            return rows.filter((row) => partitionOfKey(Topics.orders, row.key, leaders.size) === partition).length >= 3;
          },
          {
            timeoutMs: 120_000,
            intervalMs: 250,
            description: `rows of ${Topics.orders}[${partition}] written after the cut and published before the heal`,
          },
        );
        log(`rows of ${Topics.orders}[${partition}] written after the cut published ${Date.now() - cut.since} ms after it`);
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
