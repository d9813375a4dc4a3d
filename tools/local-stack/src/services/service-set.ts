import { deleteConsumerGroups } from '../kafka/consumer-group-position.js';
import type { KafkaCredentials } from '../kafka/local-kafka-credentials.js';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import type { ServiceName } from './service-catalog.js';
import { ServiceProcess, type ServiceProcessOptions } from './service-process.js';

/** Where the Postgres server and the Kafka cluster are. */
export interface Infrastructure {
  /** Postgres server URL without a database (`DATABASE_URL`); throw-away databases are created on it. */
  serverUrl: string;
  /** Kafka bootstrap brokers (`KAFKA_BROKERS`, comma-separated in the environment). */
  brokers: string[];
  /**
   * What each app needs to verify tokens (`AUTH_ISSUER`, its own `AUTH_AUDIENCE`, `AUTH_JWKS_URL`)
   * and inventory to fetch its service token (`AUTH_CLIENT_*`): `DevIssuer.appEnvs()` of the run's issuer.
   */
  authEnv: Record<ServiceName, Record<string, string>>;
  /**
   * The passwords of the brokers' users: each service authenticates as its own principal. Absent:
   * the services get no `KAFKA_SASL_*` (a broker of the caller's, whose variables it passes in `env`).
   */
  kafkaCredentials?: KafkaCredentials;
  /** Each service's own `MESSAGE_SIGNING_KEY` (when it produces) and `MESSAGE_VERIFY_KEYS` (when it consumes). */
  signingEnv: Record<ServiceName, Record<string, string>>;
  /** How much of each service's output to keep ({@link ServiceProcessOptions.keptOutputChars}) unless its start says; default all. */
  keptOutputChars?: number;
}

/**
 * {@link ServiceProcessOptions} without what {@link ServiceSet} fills in: the Postgres server
 * and the token issuer always, the brokers unless given (a run on a private broker passes its own).
 */
export type ServiceSetStartOptions = Omit<
  ServiceProcessOptions,
  'serverUrl' | 'brokers' | 'authEnv' | 'kafkaCredentials' | 'signingEnv'
> & {
  brokers?: string[];
};

/** Anything else released at tear-down, e.g. a topic reader. */
interface Stoppable {
  stop(): Promise<unknown>;
}

/**
 * Services started on a shared Postgres and Kafka, with their throw-away databases: what one test
 * file or one benchmark run starts. Each is remembered the moment it exists, so `tearDown()`
 * releases exactly what was started, even when the start-up failed half-way.
 *
 * @example
 * const services = new ServiceSet({ serverUrl, brokers });
 * const database = await services.createDatabase('orders_example');
 * const orders = await services.start({ service: 'orders', database });
 * ...
 * await services.tearDown();
 */
export class ServiceSet {
  private readonly databases: string[] = [];
  private readonly processes: { service: ServiceProcess; brokers: string[] }[] = [];
  private readonly others: Stoppable[] = [];

  constructor(readonly infrastructure: Infrastructure) {}

  /** A new, empty database named `<prefix>_test_<unique>`; dropped by {@link tearDown}. */
  async createDatabase(prefix: string): Promise<string> {
    const database = await createTestDatabase(this.infrastructure.serverUrl, prefix);
    this.databases.push(database);
    return database;
  }

  /**
   * Starts one service process (migrates its database, waits for `GET /health`, see
   * {@link ServiceProcess.start}); stopped, and its consumer groups deleted, by {@link tearDown}.
   */
  async start(options: ServiceSetStartOptions): Promise<ServiceProcess> {
    const brokers = options.brokers ?? this.infrastructure.brokers;
    const service = await ServiceProcess.start({
      ...(this.infrastructure.keptOutputChars !== undefined && { keptOutputChars: this.infrastructure.keptOutputChars }),
      ...options,
      serverUrl: this.infrastructure.serverUrl,
      brokers,
      authEnv: this.infrastructure.authEnv[options.service],
      kafkaCredentials: this.infrastructure.kafkaCredentials,
      signingEnv: this.infrastructure.signingEnv[options.service],
    });
    this.processes.push({ service, brokers });
    return service;
  }

  /** Has {@link tearDown} stop `resource` too, right after the processes; returns it. */
  adopt<T extends Stoppable>(resource: T): T {
    this.others.push(resource);
    return resource;
  }

  /**
   * Stops the processes (last started first, so none outlives one it calls), then what was
   * {@link adopt}ed; deletes the processes' consumer groups and drops the databases. Every step runs
   * even when an earlier one fails; the first failure is rethrown at the end. Safe to call twice.
   */
  async tearDown(): Promise<void> {
    const failures: unknown[] = [];
    const attempt = async (step: () => Promise<unknown>) => {
      await step().catch((error: unknown) => failures.push(error));
    };
    const processes = this.processes.splice(0).reverse();
    for (const { service } of processes) await attempt(() => service.stop());
    for (const other of this.others.splice(0)) await attempt(() => other.stop());
    for (const { service, brokers } of processes) await attempt(() => deleteConsumerGroups(brokers, service.consumerGroups));
    for (const database of this.databases.splice(0)) await attempt(() => dropTestDatabase(this.infrastructure.serverUrl, database));
    if (failures.length > 0) throw failures[0];
  }
}
