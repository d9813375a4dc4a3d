import { LocalKafkaCluster, queryTestDatabase, waitFor } from '@tools/local-stack';
import { appsNotRunning, ChaosCluster, CHAOS_TARGETS, type ServiceTarget } from '../chaos/chaos-cluster.js';
import type { UnexpectedExit } from '../chaos/chaos-monkey.js';
import { stockPlan } from '../chaos/chaos-soak.js';
import { checkInvariants, type CheckFacts } from '../chaos/invariant-checker.js';
import { loadOnCluster, type OrderOutcome } from '../chaos/order-load.js';
import { waitForQuiet } from '../chaos/quiet.js';
import { SeededRandom } from '../chaos/seeded-random.js';
import { failoverStall, type FailoverStall } from './failover-stall.js';
import { type AnsweredOrder, slowestOrderTimeline } from './slowest-order-timeline.js';

/** When a broker crash test hurt the cluster, and when the brokers had recovered on their own side. */
interface FaultClock {
  /** Call at the moment of the fault (the stall is measured from there). */
  faultNow(): void;
  /** Call once the brokers elected the successor (a new leader or coordinator shows in the metadata). */
  brokersRecovered(): void;
}

/** What a broker crash test does to the cluster while the load runs. */
export type BrokerAction = (cluster: ChaosCluster, log: (line: string) => void, clock: FaultClock) => Promise<void>;

export interface BrokerCrashResult {
  violations: string[];
  outcomes: OrderOutcome[];
  facts: CheckFacts;
  /** Worst time from an orders outbox row's commit to its publish (ms): the stall the action caused. */
  worstPublishLatencyMs: number;
  /** How long the fault held orders up, from the orders answered (RESERVED or REJECTED). */
  stall: FailoverStall;
  /** The cluster's configured fencing time (`broker.session.timeout.ms`). */
  fencingMs: number;
  /**
   * From the fault to the successor's election, as the metadata showed it: the brokers' share of
   * the failover (fencing, election, and the time to see it), which no client setting shortens.
   */
  brokerFailoverMs: number;
  /** How often an app's kafkajs consumer crashed and restarted (rejoining its group as a new member). */
  consumerRestarts: number;
  log: string[];
}

/**
 * The system as the chaos soak runs it (two orders, two inventory, one loyalty, real processes) on
 * a three-node Kafka cluster of its own: places `orders` orders at `rate` per second while `action`
 * hurts the brokers, waits until nothing moves, then proves the chaos invariants (no lost or
 * doubled order, reservation or accrual; stock conserved; per-order order kept; nothing pending;
 * no app process exited). The cluster and the databases are gone afterwards.
 */
export async function runBrokerCrashScenario(options: {
  orders: number;
  rate: number;
  seed: number;
  action: BrokerAction;
}): Promise<BrokerCrashResult> {
  const lines: string[] = [];
  const log = (line: string) => lines.push(`${new Date().toISOString()} ${line}`);
  const cluster = await ChaosCluster.start({
    stock: stockPlan(options.orders),
    echo: false,
    kafkaNodes: 3,
    onStep: log,
    // A consumer on a killed node's partitions fails over after this long (the minimum accepted).
    env: { KAFKA_SESSION_TIMEOUT_MS: '6000' },
  });
  try {
    log('load starts');
    const load = loadOnCluster(cluster, {
      orders: options.orders,
      rate: options.rate,
      cancelRatio: 0.2,
      random: new SeededRandom(options.seed),
    });
    let faultAtMs = Number.POSITIVE_INFINITY;
    let recoveredAtMs = Number.NaN;
    const action = options.action(cluster, log, {
      faultNow: () => {
        faultAtMs = Date.now();
      },
      brokersRecovered: () => {
        recoveredAtMs = Date.now();
      },
    });
    const [outcomes] = await Promise.all([load, action]);
    log('load and action done; waiting for quiet');
    for (const node of cluster.broker.nodes) if (!cluster.broker.isRunning(node)) await cluster.broker.resume(node);
    const notQuiet = await waitForQuiet(cluster, 180_000);
    const exits: UnexpectedExit[] = appsNotRunning(cluster);
    const { violations, facts } = await checkInvariants(
      { serverUrl: cluster.serverUrl, databases: cluster.databases, brokers: cluster.broker.brokers, initialStock: cluster.initialStock },
      outcomes,
      exits,
    );
    if (notQuiet) violations.unshift(`not quiet within 180 s: ${notQuiet}`);
    const [{ worst }] = await queryTestDatabase<{ worst: number }>(
      cluster.serverUrl,
      cluster.databases.orders,
      'SELECT coalesce(max(extract(epoch FROM published_at - created_at) * 1000), 0)::int AS worst FROM outbox_messages',
    );
    const completed = await completedOrders(cluster);
    const stall = failoverStall(completed, faultAtMs);
    const fencingMs = cluster.broker instanceof LocalKafkaCluster ? cluster.broker.sessionTimeoutMs : Number.NaN;
    const brokerFailoverMs = recoveredAtMs - faultAtMs;
    const ms = (value: number) => `${Math.round(value)} ms`;
    log(
      `quiet; worst orders outbox publish latency ${worst} ms; longest stretch without an answered order ${ms(stall.longestGapMs)}, ` +
        `slowest order ${ms(stall.maxEndToEndMs)}, p99 before the fault ${ms(stall.p99BeforeFaultMs)}; ` +
        `brokers' failover ${ms(brokerFailoverMs)} (fencing ${fencingMs} ms); ${violations.length} violation(s)`,
    );
    const slowest = completed.reduce<AnsweredOrder | undefined>(
      (worst, order) => (worst && worst.finalAtMs - worst.createdAtMs >= order.finalAtMs - order.createdAtMs ? worst : order),
      undefined,
    );
    if (slowest) log(await slowestOrderTimeline(cluster, slowest, faultAtMs));
    let consumerRestarts = 0;
    for (const target of CHAOS_TARGETS.filter((one): one is ServiceTarget => one !== 'broker')) {
      const logs = cluster.processes[target].process.logs;
      // How often kafkajs left a moved partition unsent and the relay sent it again (kafkajs#1303).
      const resent = logs.match(/Kafka did not acknowledge/g)?.length ?? 0;
      if (resent > 0) log(`${target}: ${resent} batch(es) with partitions Kafka left unacknowledged, sent again`);
      // kafkajs' own words when a consumer crashed and will run again as a new member of its group.
      const restarts = logs.match(/Restarting the consumer in/g)?.length ?? 0;
      if (restarts > 0) {
        // kafkajs logs why just before: the error that ended the consumer's run.
        const crashes = [...new Set(logs.match(/Crash: [^"]*/g) ?? [])];
        log(`${target}: its Kafka consumer crashed and restarted ${restarts} time(s): ${crashes.join('; ')}`);
      }
      consumerRestarts += restarts;
    }
    return { violations, outcomes, facts, worstPublishLatencyMs: worst, stall, fencingMs, brokerFailoverMs, consumerRestarts, log: lines };
  } finally {
    await cluster.tearDown();
  }
}

/** Every order the orders database answered (RESERVED or REJECTED), with when it was placed and answered. */
async function completedOrders(cluster: ChaosCluster): Promise<AnsweredOrder[]> {
  const rows = await queryTestDatabase<{ id: string; created: number; final: number }>(
    cluster.serverUrl,
    cluster.databases.orders,
    `SELECT id, (extract(epoch FROM created_at) * 1000)::float8 AS created, (extract(epoch FROM updated_at) * 1000)::float8 AS final
     FROM orders WHERE status IN ('RESERVED', 'REJECTED')`,
  );
  return rows.map((row) => ({ id: row.id, createdAtMs: row.created, finalAtMs: row.final }));
}

/** Resolves once the orders relay has published at least `rows` rows: the load is flowing through Kafka. */
export async function publishedAtLeast(cluster: ChaosCluster, rows: number): Promise<void> {
  await waitFor(
    async () => {
      const [{ n }] = await queryTestDatabase<{ n: number }>(
        cluster.serverUrl,
        cluster.databases.orders,
        'SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NOT NULL',
      );
      return n >= rows;
    },
    { timeoutMs: 120_000, intervalMs: 200, description: `${rows} orders outbox rows published` },
  );
}

/** Resolves once inventory has handled at least `messages` orders messages (inbox rows). */
export async function inventoryHandledAtLeast(cluster: ChaosCluster, messages: number): Promise<void> {
  await waitFor(
    async () => {
      const [{ n }] = await queryTestDatabase<{ n: number }>(
        cluster.serverUrl,
        cluster.databases.inventory,
        'SELECT count(*)::int AS n FROM inbox_messages',
      );
      return n >= messages;
    },
    { timeoutMs: 120_000, intervalMs: 200, description: `${messages} messages handled by inventory` },
  );
}

/** Resolves once `node` leads nothing any more and the cluster elected new leaders: a failover happened. */
export async function leaderMovedFrom(cluster: ChaosCluster, topic: string, partition: number, node: number): Promise<number> {
  return waitFor(
    async () => {
      const leader = await cluster.broker.leaderOf(topic, partition);
      return leader !== undefined && leader !== node ? leader : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, description: `a new leader of ${topic}[${partition}]` },
  );
}
