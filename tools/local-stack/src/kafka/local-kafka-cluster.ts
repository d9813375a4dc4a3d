import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createKafka } from '@libs/kafka';
import { applyKafkaAcls } from './kafka-acls.js';
import { makeKafkaStateDir } from './kafka-state-dir.js';
import { toolingKafkaSecurity } from './local-kafka-access.js';
import { findRepoRoot } from '../environment/repo-root.js';
import type { NetworkLab, NetworkPlacement } from '../network/network-lab.js';
import { freePort, uniqueName, waitFor } from '@tools/test-support';

/** Options of {@link LocalKafkaCluster.start}. */
export interface LocalKafkaClusterOptions {
  /** KRaft nodes (each broker + controller). Default 3. */
  nodes?: number;
  /**
   * How soon the controller fences a node that stopped heartbeating (a SIGKILLed one) and moves
   * its leaders away (`broker.session.timeout.ms`). Default `KAFKA_LOCAL_BROKER_SESSION_TIMEOUT_MS`
   * from the environment, else 3000 ms, the script's cluster default (Kafka's own: 9000 ms).
   */
  sessionTimeoutMs?: number;
  /** Prefix of the state directory under `.local/`. Default `kafka-cluster`. */
  name?: string;
  /**
   * Run node `i` inside a namespace `kafka-<i>` of this lab, listening and advertising on its
   * address, so a test can cut it off from the other nodes or from clients. Its ports are then
   * {@link LAB_CLIENT_PORT}+i and {@link LAB_CONTROLLER_PORT}+i inside its own namespace, free
   * whatever the host runs. Default: every node on 127.0.0.1, on free ports of the host.
   */
  network?: NetworkLab;
}

/** Client port of node `i` inside a lab namespace: 19600 + i (clear of 9092, the tests' 19092-19593 and the ephemeral range). */
const LAB_CLIENT_PORT = 19600;
/** Controller port of node `i` inside a lab namespace: 19650 + i. */
const LAB_CONTROLLER_PORT = 19650;

/**
 * A Kafka cluster of its own for a test, a benchmark or the chaos soak: `scripts/kafka-local.sh`
 * with `KAFKA_LOCAL_NODES` nodes on free ports and a state directory under `.local/`, so killing
 * its nodes touches nobody else. Node `i` is broker id `i`. SASL/SCRAM with the local users and
 * the system's ACLs, like every local broker.
 */
export class LocalKafkaCluster {
  private constructor(
    private readonly repoRoot: string,
    private readonly dir: string,
    readonly ports: number[],
    private readonly controllerPorts: number[],
    /** How soon the controller fences a node that stopped heartbeating (`broker.session.timeout.ms`). */
    readonly sessionTimeoutMs: number,
    /** Where each node runs (index node - 1) when the cluster was started in a network lab; empty otherwise. */
    readonly placements: readonly NetworkPlacement[] = [],
  ) {}

  /** `<address>:<port>` of every node (127.0.0.1 unless in a lab), for `KAFKA_BROKERS`. */
  get brokers(): string[] {
    return this.ports.map((port, index) => `${this.placements[index]?.address ?? '127.0.0.1'}:${port}`);
  }

  /** Node numbers, 1..N. */
  get nodes(): number[] {
    return this.ports.map((_, index) => index + 1);
  }

  /** Starts every node (resolves once all are ready and the cluster answers metadata requests). */
  static async start(options: LocalKafkaClusterOptions = {}): Promise<LocalKafkaCluster> {
    const nodes = options.nodes ?? 3;
    const repoRoot = findRepoRoot();
    const dir = join(repoRoot, '.local', uniqueName(options.name ?? 'kafka-cluster'));
    const taken = new Set<number>();
    const port = async () => {
      let candidate = await freePort();
      while (taken.has(candidate)) candidate = await freePort();
      taken.add(candidate);
      return candidate;
    };
    const ports: number[] = [];
    const controllerPorts: number[] = [];
    const placements: NetworkPlacement[] = [];
    for (let i = 1; i <= nodes; i++) {
      if (options.network) placements.push(await options.network.join(`kafka-${i}`));
      ports.push(options.network ? LAB_CLIENT_PORT + i : await port());
      controllerPorts.push(options.network ? LAB_CONTROLLER_PORT + i : await port());
    }
    // Made once the namespaces exist: a failed join left the directory behind.
    makeKafkaStateDir(repoRoot, dir);
    const cluster = new LocalKafkaCluster(
      repoRoot,
      dir,
      ports,
      controllerPorts,
      options.sessionTimeoutMs ?? Number(process.env.KAFKA_LOCAL_BROKER_SESSION_TIMEOUT_MS || 3000),
      placements,
    );
    try {
      await cluster.script('start');
      await cluster.waitForBrokers(nodes);
      // Its users are the local ones (the script's shared credentials file); its ACLs, the system's.
      await applyKafkaAcls(cluster.brokers, toolingKafkaSecurity());
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  private async script(...args: string[]): Promise<string> {
    const { stdout } = await promisify(execFile)('bash', [join(this.repoRoot, 'scripts/kafka-local.sh'), ...args], {
      cwd: this.repoRoot,
      env: {
        ...process.env,
        KAFKA_LOCAL_NODES: String(this.ports.length),
        KAFKA_LOCAL_PORTS: this.ports.join(','),
        KAFKA_LOCAL_CONTROLLER_PORTS: this.controllerPorts.join(','),
        KAFKA_LOCAL_HOSTS: this.placements.map((placement) => placement.address).join(','),
        KAFKA_LOCAL_NETNS: this.placements.map((placement) => placement.namespace).join(','),
        KAFKA_LOCAL_DIR: this.dir,
        KAFKA_LOCAL_BROKER_SESSION_TIMEOUT_MS: String(this.sessionTimeoutMs),
        // The cluster's own directory, whatever the caller's environment says.
        KAFKA_LOCAL_DATA_DIR: '',
      },
      timeout: 180_000,
    });
    return stdout;
  }

  /**
   * SIGKILL of node `node`: no shutdown, no controlled leader hand-over; the controller fences it
   * after the session timeout. Resolves once the process is gone and its port closed.
   */
  async kill(node: number): Promise<void> {
    await this.script('kill', String(node));
  }

  /** Starts node `node` again on its ports and data (resolves once it is ready). */
  async resume(node: number): Promise<void> {
    await this.script('start', String(node));
  }

  /** Stops node `node` cleanly (SIGTERM: it hands its leaderships over first). */
  async stopNode(node: number): Promise<void> {
    await this.script('stop', String(node));
  }

  /** True while node `node`'s process runs. */
  isRunning(node: number): boolean {
    try {
      const pid = Number(readFileSync(this.pidFile(node), 'utf8').replace(/\D/g, ''));
      if (!pid) return false;
      process.kill(pid, 0);
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  }

  private pidFile(node: number): string {
    // One node keeps the script's single-broker layout.
    if (this.ports.length === 1) return join(this.dir, 'broker.pid');
    return join(this.dir, `cluster-${this.ports.length}`, `node-${node}`, 'broker.pid');
  }

  /**
   * The node that leads `partition` of `topic` now, from any live node's metadata; undefined
   * while it has none (an election in progress, or every replica down).
   */
  async leaderOf(topic: string, partition: number, via?: number[]): Promise<number | undefined> {
    const leader = (await this.leadersOf(topic, via)).get(partition);
    return leader !== undefined && leader >= 0 ? leader : undefined;
  }

  /**
   * The leader of every partition of `topic` now, by partition (-1 where it has none), in one
   * metadata read; from the nodes `via` only when given (a node cut off from the others still
   * believes in its own, stale, leaderships).
   */
  async leadersOf(topic: string, via?: number[]): Promise<Map<number, number>> {
    const admin = createKafka({
      brokers: via ? via.map((node) => this.brokers[node - 1]) : this.liveBrokers(),
      clientId: uniqueName('cluster-probe'),
      security: toolingKafkaSecurity(),
    }).admin({ retry: { retries: 1 } });
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return new Map((topics[0]?.partitions ?? []).map(({ partitionId, leader }) => [partitionId, leader]));
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /**
   * The node that coordinates every consumer group: the local cluster's offsets topic has one
   * partition (`offsets.topic.num.partitions=1`), and its leader is the coordinator.
   */
  groupCoordinator(): Promise<number | undefined> {
    return this.leaderOf('__consumer_offsets', 0);
  }

  /** Resolves once `count` brokers are registered and unfenced in the cluster's metadata. */
  async waitForBrokers(count: number, timeoutMs = 120_000): Promise<void> {
    await waitFor(
      async () => {
        const admin = createKafka({
          brokers: this.liveBrokers(),
          clientId: uniqueName('cluster-probe'),
          security: toolingKafkaSecurity(),
        }).admin({ retry: { retries: 1 } });
        await admin.connect();
        try {
          return (await admin.describeCluster()).brokers.length >= count;
        } finally {
          await admin.disconnect().catch(() => undefined);
        }
      },
      { timeoutMs, intervalMs: 250, description: `${count} Kafka brokers in the cluster at ${this.brokers.join(',')}` },
    );
  }

  private liveBrokers(): string[] {
    const live = this.nodes.filter((node) => this.isRunning(node)).map((node) => this.brokers[node - 1]);
    return live.length > 0 ? live : this.brokers;
  }

  /**
   * Kills every node and deletes the state directory. Safe to call twice. SIGKILL, not a clean
   * stop: the data goes with the nodes, and three nodes shutting down cleanly took 7 s.
   */
  async destroy(): Promise<void> {
    await Promise.all(this.nodes.map((node) => this.kill(node).catch(() => undefined)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
