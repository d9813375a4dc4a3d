import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Topics } from '@app/contracts';
import { failpointMarker, type FailpointName, type FailpointSpec } from '@app/failpoints';
import { AppProcess } from './app-process.js';
import { startGroupAtEnd } from './consumer-group-position.js';
import { freePort } from './free-port.js';
import { findRepoRoot } from './repo-root.js';
import { runNodeScript } from './run-node-script.js';
import { assertTestDatabaseName } from './test-database.js';
import { uniqueName } from './unique-name.js';
import { waitFor } from './wait-for.js';

export type ServiceName = 'orders' | 'inventory' | 'loyalty';

/** The topics each service's Kafka handlers consume (loyalty has none). */
const CONSUMED_TOPICS: Record<ServiceName, string[]> = {
  orders: [Topics.reservations],
  inventory: [Topics.orders],
  loyalty: [],
};

/**
 * Where the compiled entry points are: `TEST_DIST_DIR` when set, else `<repo>/dist`. Setting it to
 * a private copy keeps a run safe from a concurrent `node scripts/build.mjs`, which deletes `dist/`
 * first (a copy needs `package.json` beside it and `node_modules` reachable above it).
 */
export function compiledEntry(service: ServiceName, file: 'main' | 'migrate' | 'seed'): string {
  const root = process.env.TEST_DIST_DIR || join(findRepoRoot(), 'dist');
  const path = join(root, 'apps', service, 'src', `${file}.js`);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`node scripts/build.mjs\` before these tests`);
  return path;
}

/** Applies `service`'s migrations to `database` (created when missing) with its real `migrate` entry point. */
export async function migrateServiceDatabase(service: ServiceName, serverUrl: string, database: string): Promise<void> {
  assertTestDatabaseName(database);
  await runNodeScript(compiledEntry(service, 'migrate'), {
    cwd: findRepoRoot(),
    env: { PATH: process.env.PATH, DATABASE_URL: serverUrl, DATABASE_NAME: database },
  });
}

export interface ServiceProcessOptions {
  service: ServiceName;
  /** Log prefix; default the service name. */
  name?: string;
  serverUrl: string;
  /** Must contain `test`; migrated before the first start. */
  database: string;
  brokers: string[];
  /** Failpoints to arm (`FAILPOINTS`) in the first process, `name` or `name@scope`; none by default. */
  failpoints?: FailpointSpec[];
  /**
   * Extra variables (`LOYALTY_BASE_URL`, `INBOX_MAX_ATTEMPTS`, `OUTBOX_RELAY_ENABLED`, ...); they
   * win over the defaults set here.
   */
  env?: Record<string, string>;
  /** Print the child's output live; it is always kept in `process.logs`. */
  echo?: boolean;
}

export interface RestartOptions {
  /** Failpoints armed in the new process, `name` or `name@scope`; default none. */
  failpoints?: FailpointSpec[];
  /** Variables changed for the new process (merged over the current ones). */
  env?: Record<string, string>;
  /**
   * Join a new consumer group positioned at the end of the topics instead of the old group. The
   * old group resumes from its committed offsets, which is what a crash test of redelivery needs,
   * but after a SIGKILL its dead member holds the group's rebalance for up to the session timeout
   * (30 s); a test that needs no redelivery can skip that wait.
   */
  freshConsumerGroup?: boolean;
}

/**
 * One of the three services as a real process (`node dist/apps/<service>/src/main.js`) on a test
 * database, a free port and its own consumer group, which starts at the current end of the
 * topics it consumes (see {@link startGroupAtEnd}). Restartable on the same port, database and
 * group, so a crash test can kill it (a failpoint, or {@link kill}) and bring it back.
 */
export class ServiceProcess {
  private current: AppProcess | undefined;
  private readonly groups: string[] = [];

  private constructor(
    private readonly options: ServiceProcessOptions,
    readonly port: number,
    private env: NodeJS.ProcessEnv,
  ) {}

  /** Migrates the database, starts the process and waits until `GET /health` answers 200. */
  static async start(options: ServiceProcessOptions): Promise<ServiceProcess> {
    assertTestDatabaseName(options.database);
    await migrateServiceDatabase(options.service, options.serverUrl, options.database);
    const port = await freePort();
    const id = uniqueName(`test-${options.name ?? options.service}`);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      DATABASE_URL: options.serverUrl,
      DATABASE_NAME: options.database,
      KAFKA_BROKERS: options.brokers.join(','),
      KAFKA_CLIENT_ID: id,
      KAFKA_CONSUMER_GROUP: id,
      // A SIGKILLed member holds its partitions until its session expires: keep crash tests short.
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      [`${options.service.toUpperCase()}_PORT`]: String(port),
      HTTP_HOST: '127.0.0.1',
      FAILPOINTS: (options.failpoints ?? []).join(','),
      ...options.env,
    };
    const service = new ServiceProcess(options, port, env);
    await service.positionGroup(env.KAFKA_CONSUMER_GROUP!);
    await service.launch();
    return service;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get name(): string {
    return this.options.name ?? this.options.service;
  }

  /** The running (or last) process: output, exit state. */
  get process(): AppProcess {
    if (!this.current) throw new Error(`${this.name} was never started`);
    return this.current;
  }

  /** Every consumer group this service used, for cleanup. */
  get consumerGroups(): string[] {
    return [...this.groups];
  }

  /** Waits for the failpoint's marker in the output, then for the process to be gone (SIGKILL). */
  async waitForFailpoint(name: FailpointName, timeoutMs = 60_000): Promise<void> {
    await this.process.waitForOutput(failpointMarker(name), timeoutMs);
    const exit = await this.process.waitForExit(10_000);
    if (exit.signal !== 'SIGKILL') throw new Error(`${this.name} hit ${name} but exited with ${JSON.stringify(exit)}`);
  }

  /** SIGKILL: no shutdown hook, no `finally`, as when the machine loses power. */
  async kill(): Promise<void> {
    this.process.kill('SIGKILL');
    await this.process.waitForExit(10_000);
  }

  /** Starts a new process on the same port and database once the previous one has exited. */
  async restart(options: RestartOptions = {}): Promise<void> {
    if (this.current?.isRunning) throw new Error(`${this.name} is still running; kill or stop it before restarting`);
    this.env = { ...this.env, FAILPOINTS: (options.failpoints ?? []).join(','), ...options.env };
    if (options.freshConsumerGroup) {
      const group = uniqueName(`test-${this.name}`);
      await this.positionGroup(group);
      this.env = { ...this.env, KAFKA_CONSUMER_GROUP: group };
    }
    await this.launch();
  }

  /** SIGTERM (graceful), SIGKILL when it hangs. Safe to call on a process that already exited. */
  async stop(): Promise<void> {
    await this.current?.stop();
  }

  private async positionGroup(group: string): Promise<void> {
    this.groups.push(group);
    const topics = CONSUMED_TOPICS[this.options.service];
    if (topics.length > 0) await startGroupAtEnd(this.options.brokers, group, topics);
  }

  private async launch(): Promise<void> {
    const child = new AppProcess({
      name: this.name,
      entry: compiledEntry(this.options.service, 'main'),
      env: this.env,
      cwd: findRepoRoot(),
      echo: this.options.echo,
    });
    this.current = child;
    try {
      await waitFor(
        async () => {
          if (!child.isRunning) return 'exited';
          const response = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
          return response?.ok === true ? 'up' : undefined;
        },
        // Generous: after a SIGKILL the group's rebalance waits for the dead member's session (30 s).
        { timeoutMs: 90_000, intervalMs: 200, description: `${this.name} at ${this.baseUrl}/health` },
      ).then((state) => {
        if (state === 'exited') throw new Error(`${this.name} exited during start-up`);
      });
    } catch (error) {
      await child.stop();
      throw new Error(`${(error as Error).message}\n--- ${this.name} output ---\n${child.logs}`);
    }
  }
}
