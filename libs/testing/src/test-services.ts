import { deleteConsumerGroups } from './consumer-group-position.js';
import { ServiceProcess, type ServiceProcessOptions } from './service-process.js';
import { createTestDatabase, dropTestDatabase } from './test-database.js';
import { testInfrastructure, type TestInfrastructure } from './test-infrastructure.js';
import { TopicRecorder, topicEndOffsets } from './topic-recorder.js';

/**
 * {@link ServiceProcessOptions} without what {@link TestServices} fills in: the Postgres server
 * always, the brokers unless given (a test on a private broker passes its own).
 */
export type TestServiceOptions = Omit<ServiceProcessOptions, 'serverUrl' | 'brokers'> & { brokers?: string[] };

/**
 * Everything one test file starts on the shared Postgres and Kafka: test databases, real service
 * processes and topic recorders. Each is remembered the moment it exists, so `tearDown()` in
 * `afterAll` releases exactly what was started, even when `beforeAll` failed half-way.
 *
 * @example
 * const services = new TestServices();
 * beforeAll(async () => {
 *   const database = await services.createDatabase('orders_example');
 *   orders = await services.start({ service: 'orders', database });
 * });
 * afterAll(() => services.tearDown());
 */
export class TestServices {
  private readonly databases: string[] = [];
  private readonly processes: { service: ServiceProcess; brokers: string[] }[] = [];
  private readonly recorders: TopicRecorder[] = [];

  /** @param infrastructure Where Postgres and Kafka are; default {@link testInfrastructure}(). */
  constructor(readonly infrastructure: TestInfrastructure = testInfrastructure()) {}

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
  async start(options: TestServiceOptions): Promise<ServiceProcess> {
    const brokers = options.brokers ?? this.infrastructure.brokers;
    const service = await ServiceProcess.start({ ...options, serverUrl: this.infrastructure.serverUrl, brokers });
    this.processes.push({ service, brokers });
    return service;
  }

  /**
   * Reads `topic` from its current end, so the recorder sees only what happens from now on; stopped
   * by {@link tearDown}. Start it before the test acts: records published earlier are not seen.
   */
  async recordTopic(topic: string): Promise<TopicRecorder> {
    const { brokers } = this.infrastructure;
    const recorder = await TopicRecorder.start({ brokers, topic, from: await topicEndOffsets(brokers, topic) });
    this.recorders.push(recorder);
    return recorder;
  }

  /**
   * Stops the processes (last started first, so none outlives one it calls), then the recorders;
   * deletes the processes' consumer groups and drops the databases. Every step runs even when an
   * earlier one fails; the first failure is rethrown at the end. Safe to call twice.
   */
  async tearDown(): Promise<void> {
    const failures: unknown[] = [];
    const attempt = async (step: () => Promise<unknown>) => {
      await step().catch((error: unknown) => failures.push(error));
    };
    const processes = this.processes.splice(0).reverse();
    for (const { service } of processes) await attempt(() => service.stop());
    for (const recorder of this.recorders.splice(0)) await attempt(() => recorder.stop());
    for (const { service, brokers } of processes) await attempt(() => deleteConsumerGroups(brokers, service.consumerGroups));
    for (const database of this.databases.splice(0)) await attempt(() => dropTestDatabase(this.infrastructure.serverUrl, database));
    if (failures.length > 0) throw failures[0];
  }
}
