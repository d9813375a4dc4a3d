import { PrivateKafka, setStock, testInfrastructure, TestServices } from '@test/fixtures';
import { type ServiceName, type ServiceProcess, uniqueSku } from '@tools/local-stack';

/** Every process the chaos may kill: the broker and the five service replicas. */
export const CHAOS_TARGETS = ['broker', 'orders-1', 'orders-2', 'inventory-1', 'inventory-2', 'loyalty'] as const;
export type ChaosTarget = (typeof CHAOS_TARGETS)[number];
export type ServiceTarget = Exclude<ChaosTarget, 'broker'>;

/**
 * Timing that lets the system heal within seconds of a kill instead of the production defaults'
 * tens of seconds: the relay retries a failed publish after at most 2 s (default 30 s), the loyalty
 * dispatcher polls every 100 ms and retries after at most 1 s. Nothing here weakens a guarantee.
 */
const HEALING_ENV: Record<string, string> = {
  OUTBOX_RETRY_MAX_MS: '2000',
  LOYALTY_DISPATCH_INTERVAL_MS: '100',
  LOYALTY_RETRY_BASE_MS: '100',
  LOYALTY_RETRY_MAX_MS: '1000',
};

/** The databases of one soak (throw-away, named `chaos_<service>_test_<unique>`). */
export interface ChaosDatabases {
  orders: string;
  inventory: string;
  loyalty: string;
}

/**
 * The system under chaos: a Kafka broker of its own (so killing it touches nobody else), two orders
 * replicas, two inventory replicas (each pair on one database and one consumer group, as replicas
 * of one deployment) and one loyalty, all real processes on throw-away databases.
 */
export class ChaosCluster {
  private constructor(
    readonly broker: PrivateKafka,
    private readonly services: TestServices,
    readonly processes: Record<ServiceTarget, ServiceProcess>,
    readonly databases: ChaosDatabases,
    /** SKU -> units set before the load. */
    readonly initialStock: Map<string, number>,
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

  static async start(options: { stock: number[]; echo: boolean; onStep?: (step: string) => void }): Promise<ChaosCluster> {
    const step = options.onStep ?? (() => undefined);
    step('starting a private Kafka broker');
    const broker = await PrivateKafka.start();
    const services = new TestServices({ ...testInfrastructure(), brokers: broker.brokers });
    try {
      const databases: ChaosDatabases = {
        orders: await services.createDatabase('chaos_orders'),
        inventory: await services.createDatabase('chaos_inventory'),
        loyalty: await services.createDatabase('chaos_loyalty'),
      };
      const start = (service: ServiceName, name: ServiceTarget, env: Record<string, string> = {}) => {
        step(`starting ${name}`);
        return services.start({ service, name, database: databases[service], echo: options.echo, env: { ...HEALING_ENV, ...env } });
      };
      const loyalty = await start('loyalty', 'loyalty');
      const inventoryEnv = { LOYALTY_BASE_URL: loyalty.baseUrl };
      const inventory1 = await start('inventory', 'inventory-1', inventoryEnv);
      const inventory2 = await start('inventory', 'inventory-2', { ...inventoryEnv, KAFKA_CONSUMER_GROUP: inventory1.consumerGroups[0] });
      const orders1 = await start('orders', 'orders-1');
      const orders2 = await start('orders', 'orders-2', { KAFKA_CONSUMER_GROUP: orders1.consumerGroups[0] });
      const initialStock = new Map(options.stock.map((units) => [uniqueSku('CHAOS'), units]));
      for (const [sku, units] of initialStock) await setStock(inventory1.baseUrl, sku, units);
      const processes = { 'orders-1': orders1, 'orders-2': orders2, 'inventory-1': inventory1, 'inventory-2': inventory2, loyalty };
      return new ChaosCluster(broker, services, processes, databases, initialStock);
    } catch (error) {
      await services.tearDown().catch(() => undefined);
      await broker.destroy();
      throw error;
    }
  }

  /** Stops every process, drops the databases, deletes the broker and its data. Safe to call twice. */
  async tearDown(): Promise<void> {
    if (!this.broker.isRunning()) await this.broker.resume().catch(() => undefined);
    await this.services.tearDown().catch(() => undefined);
    await this.broker.destroy();
  }
}
