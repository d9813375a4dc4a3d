import type { FailpointSpec } from '@libs/failpoints';
import { scrapeMetric } from '@test/fixtures';
import { NetworkLab, waitFor } from '@tools/local-stack';
import { appsNotRunning, ChaosCluster, type ServiceTarget } from '../chaos/chaos-cluster.js';
import type { UnexpectedExit } from '../chaos/chaos-monkey.js';
import { stockPlan } from '../chaos/chaos-soak.js';
import { checkInvariants } from '../chaos/invariant-checker.js';
import { loadOnCluster, type OrderOutcome } from '../chaos/order-load.js';
import { waitForQuiet } from '../chaos/quiet.js';
import { SeededRandom } from '../chaos/seeded-random.js';

/**
 * What a partition test does to the links while the load runs; `lab` heals whatever it left cut
 * once it returns. `loadEnded` turns true once the load has had every HTTP answer (its last events
 * may still be on their way), so a wait for more traffic can stop when no more orders will come.
 */
export type PartitionAction = (
  cluster: ChaosCluster,
  lab: NetworkLab,
  log: (line: string) => void,
  loadEnded: () => boolean,
) => Promise<void>;

export interface PartitionResult {
  violations: string[];
  outcomes: OrderOutcome[];
  log: string[];
}

/**
 * The chaos soak's system (two orders, two inventory, one loyalty, real processes) on a Kafka of
 * its own, every process and every broker node in a network namespace of its own in a fresh
 * {@link NetworkLab}: places `orders` orders at `rate` per second while `action` cuts links,
 * heals every cut, waits until nothing moves and proves the chaos invariants (nothing lost,
 * nothing doubled, nothing stuck, no process died). The lab (namespaces, rules, bridge), the
 * processes, the brokers and the databases are gone afterwards, whatever happened.
 */
export async function runPartitionScenario(options: {
  orders: number;
  rate: number;
  seed: number;
  kafkaNodes: number;
  env?: Record<string, string>;
  failpoints?: Partial<Record<ServiceTarget, FailpointSpec[]>>;
  action: PartitionAction;
  /** Reads what the test asserts beyond the invariants, once quiet and before the tear-down. */
  inspect?: (cluster: ChaosCluster) => Promise<void>;
}): Promise<PartitionResult> {
  const lines: string[] = [];
  const log = (line: string) => lines.push(`${new Date().toISOString()} ${line}`);
  const lab = await NetworkLab.create();
  let cluster: ChaosCluster | undefined;
  try {
    cluster = await ChaosCluster.start({
      stock: stockPlan(options.orders),
      echo: false,
      kafkaNodes: options.kafkaNodes,
      onStep: log,
      network: lab,
      env: options.env,
      failpoints: options.failpoints,
    });
    log('load starts');
    let loadEnded = false;
    const load = loadOnCluster(cluster, {
      orders: options.orders,
      rate: options.rate,
      cancelRatio: 0.2,
      random: new SeededRandom(options.seed),
    }).finally(() => {
      loadEnded = true;
    });
    const action = options.action(cluster, lab, log, () => loadEnded).finally(() => lab.healAll());
    const [outcomes] = await Promise.all([load, action]);
    log('load and action done; waiting for quiet');
    const notQuiet = await waitForQuiet(cluster, 180_000);
    const exits: UnexpectedExit[] = appsNotRunning(cluster);
    const { violations } = await checkInvariants(
      { serverUrl: cluster.serverUrl, databases: cluster.databases, brokers: cluster.broker.brokers, initialStock: cluster.initialStock },
      outcomes,
      exits,
    );
    if (notQuiet) violations.unshift(`not quiet within 180 s: ${notQuiet}`);
    await options.inspect?.(cluster);
    log(`quiet; ${violations.length} violation(s)`);
    return { violations, outcomes, log: lines };
  } catch (error) {
    // The steps so far say where a failed run stood (which node was cut, when the leader moved).
    if (error instanceof Error) error.message += `\n${lines.join('\n')}`;
    throw error;
  } finally {
    await cluster?.tearDown().catch(() => undefined);
    await lab.destroy();
  }
}

/** The replica's `inbox_processed_total`: how many messages it handled, for "the other replica took over". */
function processedBy(cluster: ChaosCluster, target: ServiceTarget): Promise<number> {
  return scrapeMetric(cluster.processes[target].baseUrl, 'inbox_processed_total');
}

/**
 * Resolves true once `target` has handled at least `more` messages beyond what it had handled
 * when called; false as soon as `giveUp` turns true first.
 */
export async function handlesMore(
  cluster: ChaosCluster,
  target: ServiceTarget,
  more: number,
  timeoutMs = 120_000,
  giveUp: () => boolean = () => false,
): Promise<boolean> {
  const before = await processedBy(cluster, target);
  return waitFor(async () => ((await processedBy(cluster, target)) >= before + more ? true : giveUp() ? ('gave up' as const) : undefined), {
    timeoutMs,
    intervalMs: 250,
    description: `${target} to handle ${more} more message(s)`,
  }).then((result) => result === true);
}
