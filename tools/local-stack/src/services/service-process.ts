import { FAILPOINTS_ENABLED, failpointMarker, type FailpointName, type FailpointSpec, parseFailpoints } from '@libs/failpoints';
import { findRepoRoot } from '../environment/repo-root.js';
import { startGroupAtEnd, topicPartitionsOf } from '../kafka/consumer-group-position.js';
import { consumerGroupPrefix, kafkaPrincipalOf } from '../kafka/kafka-principals.js';
import { type KafkaCredentials, kafkaSaslEnv } from '../kafka/local-kafka-credentials.js';
import type { NetworkPlacement } from '../network/network-lab.js';
import { assertTestDatabaseName, freePort, uniqueName } from '@tools/test-support';
import { APP_PROCESS_ENV } from '../processes/app-process-env.js';
import { NodeProcess } from '../processes/node-process.js';
import { compiledEntry } from './compiled-entry.js';
import { migrateServiceDatabase } from './run-migrations.js';
import { serviceNamed, type ServiceName } from './service-catalog.js';

/** Consumer groups this process positioned at the end of their topics (names are unique per run). */
const positionedGroups = new Set<string>();

export interface ServiceProcessOptions {
  service: ServiceName;
  /** Log prefix; default the service name. */
  name?: string;
  serverUrl: string;
  /** Must contain `test`; migrated before the first start. */
  database: string;
  brokers: string[];
  /** This service's `AUTH_*` variables of the run's token issuer (see `Infrastructure.authEnv`). */
  authEnv: Record<string, string>;
  /** The brokers' users' passwords: the service authenticates as its own principal (see `Infrastructure.kafkaCredentials`). */
  kafkaCredentials?: KafkaCredentials;
  /** This service's own signing key and the public keys it verifies with (see `Infrastructure.signingEnv`). */
  signingEnv: Record<string, string>;
  /** Failpoints to arm (`FAILPOINTS`) in the first process, `name` or `name@scope`; none by default. */
  failpoints?: FailpointSpec[];
  /**
   * Extra variables (`LOYALTY_BASE_URL`, `INBOX_MAX_ATTEMPTS`, `OUTBOX_RELAY_ENABLED`, ...); they
   * win over the defaults set here.
   */
  env?: Record<string, string>;
  /**
   * Node options before the entry; default the flags every app runs with (APP_NODE_FLAGS). A test
   * of `npm run dev` adds `--watch`, as the start script does.
   */
  nodeArgs?: readonly string[];
  /** Print the child's output live; it is always kept in `process.logs`. */
  echo?: boolean;
  /** Keep only about the last this many characters of its output in `process.logs`; default all of it. */
  keptOutputChars?: number;
  /**
   * Run inside this namespace of a {@link NetworkLab}, listening on its address (where
   * {@link ServiceProcess.baseUrl} points), with the host's loopback services reached through the
   * lab's gateway; `brokers` must then be addresses the namespace reaches. Default: the host's
   * network, on 127.0.0.1.
   */
  network?: NetworkPlacement;
  /**
   * False: return as soon as the process is spawned, without waiting for `GET /health`, and leave
   * its consumer group unpositioned (positioning needs the broker). For a start with the broker
   * down, which the caller then watches itself; on a fresh broker an unpositioned group starts at
   * the beginning of empty topics, so it misses nothing. Default true.
   */
  awaitHealthy?: boolean;
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
 * A consumer group (and client id) of the run's own, inside the prefix the service's principal may
 * join (`<service>-test-<name>_<unique>`).
 */
function testGroupName(options: ServiceProcessOptions): string {
  const principal = kafkaPrincipalOf(options.service);
  const prefix = principal ? `${consumerGroupPrefix(principal)}-` : '';
  return uniqueName(`${prefix}test-${options.name ?? options.service}`);
}

/**
 * One of the three services as a real process (`node dist/apps/<service>/src/main.js`) on a test
 * database, a free port and its own consumer group, which starts at the current end of the
 * topics it consumes (see {@link startGroupAtEnd}). Restartable on the same port, database and
 * group, so a crash test can kill it (a failpoint, or {@link kill}) and bring it back.
 */
export class ServiceProcess {
  private current: NodeProcess | undefined;
  private readonly groups: string[] = [];

  private constructor(
    private readonly options: ServiceProcessOptions,
    readonly port: number,
    private env: NodeJS.ProcessEnv,
  ) {}

  /** The throw-away database this service runs on. */
  get database(): string {
    return this.options.database;
  }

  /** Migrates the database, starts the process and waits until `GET /health` answers (see {@link NodeProcess.waitUntilHealthy}). */
  static async start(options: ServiceProcessOptions): Promise<ServiceProcess> {
    assertTestDatabaseName(options.database);
    await migrateServiceDatabase(options.service, options.serverUrl, options.database);
    const port = await freePort();
    const id = testGroupName(options);
    const principal = kafkaPrincipalOf(options.service);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...APP_PROCESS_ENV,
      NODE_ENV: 'test',
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      DATABASE_URL: options.serverUrl,
      DATABASE_NAME: options.database,
      KAFKA_BROKERS: options.brokers.join(','),
      KAFKA_CLIENT_ID: id,
      KAFKA_CONSUMER_GROUP: id,
      // A SIGKILLed member holds its partitions until its session expires: keep crash tests short.
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      [serviceNamed(options.service).portVariable]: String(port),
      HTTP_HOST: '127.0.0.1',
      // Failpoints are honoured only in a process started for tests, on purpose: a production process must not be killable by a variable.
      [FAILPOINTS_ENABLED]: 'true',
      FAILPOINTS: (options.failpoints ?? []).join(','),
      // Off unless a test asks for it: many tests stop a relay or kill a process on purpose, and
      // the backlog that leaves would shed their own requests (503) for reasons they do not test.
      LOAD_SHED_ENABLED: 'false',
      ...(principal && options.kafkaCredentials && kafkaSaslEnv(options.kafkaCredentials, principal)),
      ...options.signingEnv,
      ...options.authEnv,
      ...options.env,
      ...(options.network && { HTTP_HOST: options.network.address }),
    };
    // The issuer a token names is a string to compare, not an address to reach.
    const placed = options.network ? await options.network.reachableEnv(env, ['AUTH_ISSUER']) : env;
    const service = new ServiceProcess(options, port, placed);
    const awaitHealthy = options.awaitHealthy ?? true;
    if (awaitHealthy) await service.positionGroup(env.KAFKA_CONSUMER_GROUP!);
    else service.groups.push(env.KAFKA_CONSUMER_GROUP!);
    await service.launch(awaitHealthy);
    return service;
  }

  get baseUrl(): string {
    return `http://${this.options.network?.address ?? '127.0.0.1'}:${this.port}`;
  }

  get name(): string {
    return this.options.name ?? this.options.service;
  }

  /** The running (or last) process: output, exit state. */
  get process(): NodeProcess {
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
      const group = testGroupName(this.options);
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
    // A replica joining the group of one started before (the same KAFKA_CONSUMER_GROUP) finds it
    // positioned already; positioning it again would make the running member rebalance for
    // nothing, and commit end offsets under it.
    if (positionedGroups.has(group)) return;
    const topics = serviceNamed(this.options.service).consumes;
    if (topics.length > 0) await startGroupAtEnd(this.options.brokers, group, [...topics], topicPartitionsOf(this.env));
    positionedGroups.add(group);
  }

  private async launch(awaitHealthy = true): Promise<void> {
    const child = this.current
      ? this.current.respawn(this.env)
      : new NodeProcess({
          name: this.name,
          entry: compiledEntry(this.options.service, 'main'),
          ...(this.options.nodeArgs && { nodeArgs: this.options.nodeArgs }),
          env: this.env,
          cwd: findRepoRoot(),
          echo: this.options.echo,
          ...(this.options.keptOutputChars !== undefined && { keptOutputChars: this.options.keptOutputChars }),
          wrapper: this.options.network?.wrapper,
        });
    this.current = child;
    if (!awaitHealthy) return;
    try {
      await child.waitUntilHealthy(`${this.baseUrl}/health`);
    } catch (error) {
      // Work waiting for a restarted process (a command due, a record in its topic) reaches it as
      // soon as it listens, and may reach an armed failpoint before /health answers: that is the
      // crash the caller asked for, and its waitForFailpoint sees it.
      if (await this.killedAtArmedFailpoint(child)) return;
      await child.stop();
      throw error;
    }
  }

  private async killedAtArmedFailpoint(child: NodeProcess): Promise<boolean> {
    for (const name of parseFailpoints(this.env.FAILPOINTS ?? '').keys()) {
      if (await child.killedAfter(failpointMarker(name as FailpointName))) return true;
    }
    return false;
  }
}
