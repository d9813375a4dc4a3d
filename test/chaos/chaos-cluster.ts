import type { FailpointSpec } from '@libs/failpoints';
import { PrivateKafka, seedPrices, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import {
  LocalKafkaCluster,
  type NetworkLab,
  type NetworkPlacement,
  type ServiceName,
  type ServiceProcess,
  uniqueSku,
} from '@tools/local-stack';

/**
 * The Kafka under chaos: one private broker, or a cluster of N nodes. Node numbers run 1..N; a
 * single broker is node 1.
 */
export interface ChaosKafka {
  readonly brokers: string[];
  readonly nodes: number[];
  /** SIGKILL of one node; resolves once it is gone. */
  kill(node: number): Promise<void>;
  /** Starts a node again on its ports and data; resolves once it is ready. */
  resume(node: number): Promise<void>;
  isRunning(node: number): boolean;
  /** The node leading `partition` of `topic` now; undefined while none does. */
  leaderOf(topic: string, partition: number): Promise<number | undefined>;
  /** Stops every node and deletes its data. */
  destroy(): Promise<void>;
  /** Where each node runs (index node - 1) on a cluster started in a network lab; empty otherwise. */
  readonly placements?: readonly NetworkPlacement[];
}

/** {@link PrivateKafka} as a cluster of one. */
class SingleBroker implements ChaosKafka {
  readonly nodes = [1];
  constructor(private readonly broker: PrivateKafka) {}
  get brokers(): string[] {
    return this.broker.brokers;
  }
  kill(): Promise<void> {
    return this.broker.kill();
  }
  resume(): Promise<void> {
    return this.broker.resume();
  }
  isRunning(): boolean {
    return this.broker.isRunning();
  }
  async leaderOf(): Promise<number | undefined> {
    return this.broker.isRunning() ? 1 : undefined;
  }
  destroy(): Promise<void> {
    return this.broker.destroy();
  }
}

/** Every process the chaos may kill: the broker (one node of it, in a cluster) and the five service replicas. */
export const CHAOS_TARGETS = ['broker', 'orders-1', 'orders-2', 'inventory-1', 'inventory-2', 'loyalty'] as const;
export type ChaosTarget = (typeof CHAOS_TARGETS)[number];
export type ServiceTarget = Exclude<ChaosTarget, 'broker'>;

/**
 * Timing that lets the system heal within seconds of a kill instead of the production defaults'
 * tens of seconds: the relay retries a failed publish after at most 2 s (default 30 s), the loyalty
 * dispatcher polls every 100 ms and retries after at most 1 s. Nothing here weakens a guarantee.
 */
const HEALING_ENV: Record<string, string> = {
  LOYALTY_DISPATCH_INTERVAL_MS: '100',
  LOYALTY_RETRY_BASE_MS: '100',
  LOYALTY_RETRY_MAX_MS: '1000',
};

/**
 * Unit prices in cents on orders' price list, one per SKU in turn: from one currency unit up, so
 * every reserved order earns loyalty points (one accrual, and one reversal when it is cancelled).
 */
const PRICES_CENTS = [250, 1200, 4999, 100, 19_999, 730];

/** The databases of one soak (throw-away, named `chaos_<service>_test_<unique>`). */
export interface ChaosDatabases {
  orders: string;
  inventory: string;
  loyalty: string;
}

/**
 * The system under chaos: a Kafka broker or cluster of its own (so killing it touches nobody else), two orders
 * replicas, two inventory replicas (each pair on one database and one consumer group, as replicas
 * of one deployment) and one loyalty, all real processes on throw-away databases.
 */
export class ChaosCluster {
  private constructor(
    readonly broker: ChaosKafka,
    private readonly services: TestServices,
    readonly processes: Record<ServiceTarget, ServiceProcess>,
    readonly databases: ChaosDatabases,
    /** SKU -> units set before the load. */
    readonly initialStock: Map<string, number>,
    /** SKU -> unit price in cents on orders' price list. */
    readonly prices: Map<string, number>,
    /** The lab the system runs in, each process in its own namespace; undefined on the host's network. */
    readonly network?: { lab: NetworkLab; placements: Record<ServiceTarget, NetworkPlacement> },
  ) {}

  get serverUrl(): string {
    return this.services.infrastructure.serverUrl;
  }

  get ordersUrls(): string[] {
    return [this.processes['orders-1'].baseUrl, this.processes['orders-2'].baseUrl];
  }

  /** The consumer group each pair of replicas shares: orders reads reservations, inventory reads orders. */
  get consumerGroups(): { orders: string; inventory: string } {
    return { orders: this.processes['orders-1'].consumerGroups[0], inventory: this.processes['inventory-1'].consumerGroups[0] };
  }

  /**
   * @param options.kafkaNodes 1 (default): one private broker; N: a local cluster of N nodes
   *   (replication factor 3, min in-sync replicas 2, a killed node fenced in 3 s).
   * @param options.env Extra environment of every service (timeouts a test lowers).
   * @param options.network Run every process (each broker node and each replica) in a namespace
   *   of its own in this lab, so links between them can be cut; the caller destroys the lab.
   */
  static async start(options: {
    stock: number[];
    echo: boolean;
    onStep?: (step: string) => void;
    kafkaNodes?: number;
    env?: Record<string, string>;
    network?: NetworkLab;
    /** Failpoints armed in a replica's first process (a partition test holds one inside a window). */
    failpoints?: Partial<Record<ServiceTarget, FailpointSpec[]>>;
  }): Promise<ChaosCluster> {
    const step = options.onStep ?? (() => undefined);
    const nodes = options.kafkaNodes ?? 1;
    step(nodes === 1 ? 'starting a private Kafka broker' : `starting a private Kafka cluster of ${nodes} nodes`);
    const lab = options.network;
    const kafkaStarted = Date.now();
    const broker: ChaosKafka =
      nodes === 1 && !lab ? new SingleBroker(await PrivateKafka.start()) : await LocalKafkaCluster.start({ nodes, network: lab });
    // Set-up is most of a short scenario's time: what it costs is logged, so a slow start shows.
    step(`Kafka up in ${Date.now() - kafkaStarted} ms`);
    const placements = {} as Record<ServiceTarget, NetworkPlacement>;
    const services = new TestServices({ ...testInfrastructure(), brokers: broker.brokers });
    try {
      const databases: ChaosDatabases = {
        orders: await services.createDatabase('chaos_orders'),
        inventory: await services.createDatabase('chaos_inventory'),
        loyalty: await services.createDatabase('chaos_loyalty'),
      };
      // Namespaces one after another (each takes the next address), before any process starts.
      if (lab)
        for (const name of ['loyalty', 'inventory-1', 'inventory-2', 'orders-1', 'orders-2'] as const)
          placements[name] = await lab.join(name);
      const start = async (service: ServiceName, name: ServiceTarget, env: Record<string, string> = {}) => {
        step(`starting ${name}`);
        return services.start({
          network: placements[name],
          failpoints: options.failpoints?.[name],
          service,
          name,
          database: databases[service],
          echo: options.echo,
          env: { ...HEALING_ENV, ...options.env, ...env },
        });
      };
      // In three waves, each start waiting only for what it needs: inventory the loyalty URL, a
      // second replica its first's consumer group (and its migrated database). Five starts in a row
      // took most of a partition test's set-up.
      const [loyalty, orders1] = await Promise.all([start('loyalty', 'loyalty'), start('orders', 'orders-1')]);
      const inventoryEnv = { LOYALTY_BASE_URL: loyalty.baseUrl };
      const [inventory1, orders2] = await Promise.all([
        start('inventory', 'inventory-1', inventoryEnv),
        start('orders', 'orders-2', { KAFKA_CONSUMER_GROUP: orders1.consumerGroups[0] }),
      ]);
      const inventory2 = await start('inventory', 'inventory-2', { ...inventoryEnv, KAFKA_CONSUMER_GROUP: inventory1.consumerGroups[0] });
      const initialStock = new Map(options.stock.map((units) => [uniqueSku('CHAOS'), units]));
      for (const [sku, units] of initialStock) await setStock(inventory1.baseUrl, sku, units);
      const prices = new Map([...initialStock.keys()].map((sku, index) => [sku, PRICES_CENTS[index % PRICES_CENTS.length]]));
      await seedPrices(services.infrastructure.serverUrl, databases.orders, Object.fromEntries(prices));
      const processes = { 'orders-1': orders1, 'orders-2': orders2, 'inventory-1': inventory1, 'inventory-2': inventory2, loyalty };
      return new ChaosCluster(broker, services, processes, databases, initialStock, prices, lab && { lab, placements });
    } catch (error) {
      await services.tearDown().catch(() => undefined);
      await broker.destroy();
      throw error;
    }
  }

  /** Stops every process, drops the databases, deletes the broker and its data. Safe to call twice. */
  async tearDown(): Promise<void> {
    for (const node of this.broker.nodes) if (!this.broker.isRunning(node)) await this.broker.resume(node).catch(() => undefined);
    await this.services.tearDown().catch(() => undefined);
    await this.broker.destroy();
  }
}

/** Every app replica of `cluster` not running once the run is over: each is a violation (no process may stop on its own). */
export function appsNotRunning(cluster: ChaosCluster): { target: ServiceTarget; atMs: number; exit: string; logTail: string }[] {
  return CHAOS_TARGETS.filter((target): target is ServiceTarget => target !== 'broker')
    .filter((target) => !cluster.processes[target].process.isRunning)
    .map((target) => ({ target, atMs: 0, exit: 'not running at the end', logTail: cluster.processes[target].process.logs.slice(-3000) }));
}
