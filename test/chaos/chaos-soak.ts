import { ChaosCluster, type ChaosTarget } from './chaos-cluster.js';
import { ChaosMonkey, type InboxTally } from './chaos-monkey.js';
import type { ChaosOptions } from './chaos-options.js';
import { type CheckFacts, checkInvariants } from './invariant-checker.js';
import { loadOnCluster } from './order-load.js';
import { waitForQuiet } from './quiet.js';
import { LeaderWatch } from './leader-watch.js';
import { SeededRandom } from './seeded-random.js';
import { Topics } from '@libs/contracts';
import { NetworkLab } from '@tools/local-stack';
import { PartitionMonkey, type PartitionTally } from './partition-monkey.js';
import { PartitionSchedule } from './partition-schedule.js';

/**
 * The consumers' session timeout of a soak with partitions: the smallest the apps accept, so that
 * about half the cuts of a consumer outlast it (the schedule's holds are drawn around it).
 */
const PARTITION_SESSION_TIMEOUT_MS = 6000;

/** Everything one soak observed; {@link formatChaosReport} prints it. */
export interface ChaosReport {
  options: ChaosOptions;
  durationMs: { load: number; quiet: number; total: number };
  orders: {
    requested: number;
    acknowledged: number;
    gaveUp: number;
    requests: number;
    repeatedAfter201: number;
    cancelsAcknowledged: number;
    cancelsRefused: number;
  };
  kills: Record<ChaosTarget, number>;
  totalKills: number;
  /** Broker kills by node (node 1 alone for a single broker). */
  brokerKills: Record<number, number>;
  /** Partition leader changes seen on the order topics and the offsets topic (0 on a single broker). */
  leaderChanges: number;
  /** The cuts made and healed; undefined without `--partitions`. */
  partitions?: PartitionTally;
  inbox: InboxTally;
  facts: CheckFacts;
  /** What still moved when the quiet wait gave up; undefined when the system became quiet. */
  notQuiet?: string;
  violations: string[];
}

/** SKUs and their stock: about half the orders find stock, the rest are rejected (both paths run). */
export function stockPlan(orders: number): number[] {
  // Each order takes 1-3 of 6 SKUs, 1-4 units each: about 1.25 units per SKU per order.
  return Array.from({ length: 6 }, (_, i) => Math.max(20, Math.round(orders * (i < 3 ? 1.5 : 0.4))));
}

/**
 * One chaos soak: starts the cluster, places the orders while the monkey kills, waits for quiet,
 * proves the invariants, tears everything down. Used by `npm run chaos` and by the short soak in
 * `npm test`, so both run the same code.
 */
export async function runChaosSoak(options: ChaosOptions, log: (line: string) => void = console.log): Promise<ChaosReport> {
  const startedAt = Date.now();
  const random = new SeededRandom(options.seed);
  log(
    `chaos: seed ${options.seed}, ${options.orders} orders at ${options.rate}/s, a kill every ~${options.killEveryMs} ms, ` +
      `${options.kafkaNodes} Kafka node(s)${options.killBrokers ? '' : ', brokers spared'}` +
      (options.partitions ? `, a partition every ~${options.partitionEveryMs} ms` : ''),
  );
  // The lab is created first and destroyed last, so a soak that fails anywhere leaves no namespace behind.
  const lab = options.partitions ? await NetworkLab.create() : undefined;
  try {
    return await soakIn(options, random, startedAt, log, lab);
  } finally {
    await lab?.destroy();
  }
}

async function soakIn(
  options: ChaosOptions,
  random: SeededRandom,
  startedAt: number,
  log: (line: string) => void,
  lab: NetworkLab | undefined,
): Promise<ChaosReport> {
  const cluster = await ChaosCluster.start({
    stock: stockPlan(options.orders),
    echo: options.echo,
    kafkaNodes: options.kafkaNodes,
    onStep: (step) => log(`chaos: ${step}`),
    network: lab,
    env: lab && { KAFKA_SESSION_TIMEOUT_MS: String(PARTITION_SESSION_TIMEOUT_MS) },
  });
  const stopOnSignal = () =>
    void cluster
      .tearDown()
      .then(() => lab?.destroy())
      .finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  // Late-bound both ways: each monkey spares what the other has hurt.
  let partitions: PartitionMonkey | undefined = undefined;
  try {
    const monkey = new ChaosMonkey(
      cluster,
      random.fork('kills'),
      options.killEveryMs,
      (line) => log(`chaos: ${line}`),
      options.killBrokers,
      (target) => partitions?.isCut(target) ?? false,
    );
    if (lab) {
      partitions = new PartitionMonkey(
        cluster,
        lab,
        new PartitionSchedule(random.fork('partitions'), options.kafkaNodes, PARTITION_SESSION_TIMEOUT_MS),
        random.fork('partition-gaps'),
        options.partitionEveryMs,
        PARTITION_SESSION_TIMEOUT_MS,
        (target) => monkey.isDown(target),
        (line) => log(`chaos: ${line}`),
      );
    }
    const leaders = new LeaderWatch(cluster.broker.brokers, [Topics.orders, Topics.reservations, '__consumer_offsets']);
    log('chaos: load and kills start');
    const loadStarted = Date.now();
    monkey.start();
    partitions?.start();
    leaders.start();
    const outcomes = await loadOnCluster(cluster, {
      orders: options.orders,
      rate: options.rate,
      cancelRatio: options.cancelRatio,
      random: random.fork('orders'),
    });
    if (monkey.totalKills < options.minKills || monkey.totalBrokerKills < options.minBrokerKills)
      log(
        `chaos: load done with ${monkey.totalKills} kills (${monkey.totalBrokerKills} of brokers); killing on until ${options.minKills} (${options.minBrokerKills} of brokers)`,
      );
    await monkey.waitForKills(options.minKills, options.minBrokerKills);
    // Every cut healed before the kills end (a victim waits for its heal to restart) and before the quiet wait.
    await partitions?.stop();
    await monkey.stop();
    await leaders.stop();
    const loadMs = Date.now() - loadStarted;
    log(`chaos: load done in ${loadMs} ms with ${monkey.totalKills} kills; waiting for quiet`);
    const quietStarted = Date.now();
    const notQuiet = await waitForQuiet(cluster, options.quietTimeoutMs);
    const quietMs = Date.now() - quietStarted;
    await monkey.scrapeAll();
    log(notQuiet ? `chaos: NOT quiet after ${quietMs} ms: ${notQuiet}` : `chaos: quiet after ${quietMs} ms; checking invariants`);
    const { violations, facts } = await checkInvariants(
      { serverUrl: cluster.serverUrl, databases: cluster.databases, brokers: cluster.broker.brokers, initialStock: cluster.initialStock },
      outcomes,
      monkey.unexpectedExits,
    );
    if (notQuiet) violations.unshift(`not quiet within ${options.quietTimeoutMs} ms: ${notQuiet}`);
    const acknowledged = outcomes.filter((outcome) => outcome.orderIds.length > 0);
    return {
      options,
      durationMs: { load: loadMs, quiet: quietMs, total: Date.now() - startedAt },
      orders: {
        requested: outcomes.length,
        acknowledged: acknowledged.length,
        gaveUp: outcomes.filter((outcome) => outcome.orderIds.length === 0 && outcome.gaveUp).length,
        requests: outcomes.reduce((sum, outcome) => sum + outcome.requests, 0),
        repeatedAfter201: outcomes.filter((outcome) => outcome.repeatedAfter201).length,
        cancelsAcknowledged: outcomes.filter((outcome) => outcome.cancel === 'acknowledged').length,
        cancelsRefused: outcomes.filter((outcome) => outcome.cancel === 'not-cancellable').length,
      },
      kills: { ...monkey.kills },
      totalKills: monkey.totalKills,
      brokerKills: { ...monkey.brokerKills },
      leaderChanges: leaders.changes,
      partitions: partitions && { ...partitions.tally, byKind: { ...partitions.tally.byKind } },
      inbox: { ...monkey.inbox },
      facts,
      notQuiet,
      violations,
    };
  } finally {
    process.removeListener('SIGINT', stopOnSignal);
    // A soak that failed midway: no cut may outlive it (stop() heals, and is a no-op once stopped).
    await partitions?.stop().catch(() => undefined);
    await cluster.tearDown();
  }
}

/** The summary `npm run chaos` prints. */
export function formatChaosReport(report: ChaosReport): string {
  const { orders, facts } = report;
  const kills = Object.entries(report.kills)
    .map(([target, n]) => `${target} ${n}`)
    .join(', ');
  const copies = Object.entries(facts.copiesOnTopic)
    .map(([topic, n]) => `${topic} ${n}`)
    .join(', ');
  const lines = [
    `chaos summary (seed ${report.options.seed}; load ${report.durationMs.load} ms, quiet after ${report.durationMs.quiet} ms, total ${report.durationMs.total} ms)`,
    `  orders:      ${orders.requested} requested, ${orders.acknowledged} acknowledged (201), ${orders.gaveUp} given up; ${orders.requests} POSTs (retries included, ${orders.repeatedAfter201} repeated after their 201)`,
    `  final:       ${Object.entries(facts.statuses)
      .map(([status, n]) => `${status} ${n}`)
      .join(', ')}`,
    `  cancels:     ${orders.cancelsAcknowledged} acknowledged, ${orders.cancelsRefused} refused (409, already final); ${facts.cancelledBeforeReservation} found no reservation at inventory (rejected, or cancelled before created)`,
    `  inventory:   ${facts.reservations.reserved} reservations held, ${facts.reservations.released} released; ${facts.accruals} accruals and ${facts.reversals} reversals at loyalty`,
    `  kills:       ${report.totalKills} SIGKILLs (${kills})`,
    `  brokers:     ${report.options.kafkaNodes} node(s); ${Object.values(report.brokerKills).reduce((sum, n) => sum + n, 0)} broker kills (${
      Object.entries(report.brokerKills)
        .map(([node, n]) => `node ${node}: ${n}`)
        .join(', ') || 'none'
    }); ${report.leaderChanges} partition leader changes seen`,
    ...(report.partitions ? [formatPartitions(report.partitions)] : []),
    `  duplicates:  copies of a message id on the topics: ${copies}`,
    `               redeliveries absorbed by the inboxes: ${report.inbox.duplicates} (inbox_duplicates_total, scraped before each kill; ${report.inbox.processed} processed)`,
    `               loyalty calls re-sent and absorbed by its Idempotency-Key: ${facts.loyaltyResends}`,
    `  violations:  ${report.violations.length === 0 ? 'none' : report.violations.length}`,
    ...report.violations.map((violation) => `    - ${violation}`),
  ];
  return lines.join('\n');
}

function formatPartitions(tally: PartitionTally): string {
  const total = Object.values(tally.byKind).reduce((sum, n) => sum + n, 0);
  const kinds = Object.entries(tally.byKind)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  return `  partitions:  ${total} cuts, all healed (${kinds}); ${tally.beyondSession} held past the ${PARTITION_SESSION_TIMEOUT_MS} ms session timeout, longest ${tally.longestMs} ms`;
}
