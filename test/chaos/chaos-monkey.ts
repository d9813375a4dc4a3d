import { scrapeMetric } from '@test/fixtures';
import { describeExit, type ServiceProcess, waitFor } from '@tools/local-stack';
import { CHAOS_TARGETS, type ChaosCluster, type ChaosTarget, type ServiceTarget } from './chaos-cluster.js';
import type { SeededRandom } from './seeded-random.js';

/** A process that died without the chaos killing it: always a violation. */
export interface UnexpectedExit {
  target: ChaosTarget;
  /** When it was seen, ms since the monkey started. */
  atMs: number;
  exit: string;
  /** The end of its output, for the report. */
  logTail: string;
}

/** Inbox counters of the processes, scraped just before each kill and once at the end. */
export interface InboxTally {
  duplicates: number;
  processed: number;
  deadLettered: number;
}

/** At most this many processes are down at once: the system must be hurt, not switched off. */
const MAX_DOWN = 3;

const tail = (text: string, lines = 30) => text.split('\n').slice(-lines).join('\n');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kills a random process with SIGKILL every few seconds (jittered) and brings it back, until
 * stopped. Victims come from a seeded shuffle of all six targets, round after round, so every
 * process, the broker included, dies once in every six kills. A victim restarts in the background
 * while the next kills go on, with two rules that keep the failures the ones under test: an app
 * is restarted only once the broker is up (started during the outage it would wait for the broker
 * at start-up, and its restart would time the outage, not the app), and the broker is killed only
 * while no app is starting. At most {@link MAX_DOWN}
 * processes are down at once; a victim that is still down is skipped for the next one.
 *
 * A watcher notices any process that exits on its own: that is recorded (a violation: no process
 * may die of the chaos around it) and the process is restarted so the soak goes on.
 */
export class ChaosMonkey {
  readonly kills = Object.fromEntries(CHAOS_TARGETS.map((target) => [target, 0])) as Record<ChaosTarget, number>;
  readonly unexpectedExits: UnexpectedExit[] = [];
  readonly inbox: InboxTally = { duplicates: 0, processed: 0, deadLettered: 0 };
  /** Broker kills by node (a single broker is node 1). */
  readonly brokerKills: Record<number, number> = {};
  /** The node the last broker kill hit, until it is back. */
  private brokerDown: number | undefined;
  private readonly startedAt = Date.now();
  /** Targets killed (or found dead) and not yet back. */
  private readonly down = new Set<ChaosTarget>();
  private readonly recoveries = new Set<Promise<void>>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private watcher: NodeJS.Timeout | undefined;
  private deck: ChaosTarget[] = [];

  /**
   * @param killBrokers False: the broker is never a victim (only the apps die).
   * @param isCut True while a partition cuts `target` (`broker`: any node): it is then not killed,
   *   and a victim found dead is restarted only once healed, since an app waits at start-up until
   *   it reaches Kafka and Postgres (its restart would time the cut), and a node cut from the
   *   others cannot rejoin.
   */
  constructor(
    private readonly cluster: ChaosCluster,
    private readonly random: SeededRandom,
    private readonly killEveryMs: number,
    private readonly log: (line: string) => void,
    private readonly killBrokers = true,
    private readonly isCut: (target: ChaosTarget) => boolean = () => false,
  ) {}

  /** True while `target` is killed, found dead or starting again (a partition leaves it alone meanwhile). */
  isDown(target: ChaosTarget): boolean {
    return this.down.has(target);
  }

  /** True when the Kafka under chaos has more than one node: apps then start while one is down. */
  private get replicated(): boolean {
    return this.cluster.broker.nodes.length > 1;
  }

  get totalKills(): number {
    return Object.values(this.kills).reduce((sum, n) => sum + n, 0);
  }

  start(): void {
    this.watcher = setInterval(() => this.watch(), 250);
    this.loop = this.run();
  }

  get totalBrokerKills(): number {
    return Object.values(this.brokerKills).reduce((sum, n) => sum + n, 0);
  }

  /** Resolves once at least `count` kills, `brokers` of them broker kills, happened (the kills go on meanwhile). */
  async waitForKills(count: number, brokers = 0): Promise<void> {
    while ((this.totalKills < count || this.totalBrokerKills < brokers) && !this.stopping) await sleep(100);
  }

  /** Ends the kills, waits until every victim is back, and stops watching. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
    while (this.recoveries.size > 0) await Promise.all(this.recoveries);
    clearInterval(this.watcher);
    this.watch();
    while (this.recoveries.size > 0) await Promise.all(this.recoveries);
  }

  /** Adds the inbox counters of every running service (the end of the soak). */
  async scrapeAll(): Promise<void> {
    for (const target of CHAOS_TARGETS) if (target !== 'broker') await this.scrape(target);
  }

  private async run(): Promise<void> {
    let nextKillAt = Date.now() + this.jitter();
    while (!this.stopping) {
      // Short naps, so stop() is never held up by a long interval.
      if (Date.now() < nextKillAt) {
        await sleep(Math.min(100, nextKillAt - Date.now()));
        continue;
      }
      const victim = this.nextVictim();
      if (!victim) {
        await sleep(100);
        continue;
      }
      this.down.add(victim);
      let what: string = victim;
      if (victim === 'broker') {
        // Any node, leaders and the group coordinator included: the seeded draw does not look.
        const node = this.replicated ? this.random.pick(this.cluster.broker.nodes) : 1;
        this.brokerDown = node;
        await this.cluster.broker.kill(node);
        this.brokerKills[node] = (this.brokerKills[node] ?? 0) + 1;
        if (this.replicated) what = `broker node ${node}`;
      } else {
        await this.scrape(victim);
        await this.service(victim).kill();
      }
      this.kills[victim]++;
      this.log(`SIGKILL ${what} (#${this.totalKills}; down now: ${[...this.down].join(', ')})`);
      this.recover(victim);
      nextKillAt = Date.now() + this.jitter();
    }
  }

  private jitter(): number {
    return Math.round(this.killEveryMs * (0.5 + this.random.next()));
  }

  /** The next target of the deck that may die now; undefined when none may (it is then tried again). */
  private nextVictim(): ChaosTarget | undefined {
    if (this.down.size >= MAX_DOWN) return undefined;
    if (this.deck.length === 0) this.deck = this.random.shuffle(CHAOS_TARGETS.filter((target) => this.killBrokers || target !== 'broker'));
    // One broker node down at a time; a single broker only while every app runs (they cannot start without it).
    const eligible = (target: ChaosTarget) =>
      !this.down.has(target) && !this.isCut(target) && (target !== 'broker' || this.replicated || this.down.size === 0);
    const index = this.deck.findIndex(eligible);
    return index < 0 ? undefined : this.deck.splice(index, 1)[0];
  }

  private service(target: ServiceTarget): ServiceProcess {
    return this.cluster.processes[target];
  }

  /** Brings `target` back in the background; `down` keeps it until it is. */
  private recover(target: ChaosTarget): void {
    const started = Date.now();
    const recovery = (async () => {
      try {
        if (target === 'broker') await this.restartBroker();
        else await this.restartService(target);
        this.log(`${target} back after ${Date.now() - started} ms`);
      } catch (error) {
        this.log(`could not bring ${target} back: ${(error as Error).message.slice(0, 1000)}`);
        throw error;
      } finally {
        this.down.delete(target);
      }
    })();
    this.recoveries.add(recovery);
    void recovery.catch(() => undefined).finally(() => this.recoveries.delete(recovery));
  }

  private async restartBroker(): Promise<void> {
    const node = this.brokerDown ?? 1;
    await waitFor(() => !this.isCut('broker'), { timeoutMs: 180_000, intervalMs: 100, description: 'the cut broker node to heal' });
    await this.cluster.broker.resume(node);
    if (!this.cluster.broker.isRunning(node)) throw new Error(`the broker start script returned but node ${node} does not run`);
    this.brokerDown = undefined;
  }

  /** Restarts `target` once the broker is up; a start-up that fails is an unexpected exit, and is tried again. */
  private async restartService(target: ServiceTarget): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      // An app started while the broker is down waits for it at start-up; with a cluster, the others answer.
      if (!this.replicated) {
        await waitFor(() => !this.down.has('broker'), { timeoutMs: 180_000, intervalMs: 100, description: 'the broker to be back' });
      }
      await waitFor(() => !this.isCut(target), { timeoutMs: 180_000, intervalMs: 100, description: `the cut of ${target} to heal` });
      try {
        await this.service(target).restart();
        return;
      } catch (error) {
        this.recordExit(target, 'exited during start-up', (error as Error).message);
        if (attempt >= 5) throw error;
      }
    }
  }

  private watch(): void {
    for (const target of CHAOS_TARGETS) {
      if (this.down.has(target)) continue;
      const stopped = this.cluster.broker.nodes.find((node) => !this.cluster.broker.isRunning(node));
      const dead = target === 'broker' ? stopped !== undefined : !this.service(target).process.isRunning;
      if (!dead) continue;
      this.down.add(target);
      if (target === 'broker') {
        this.brokerDown = stopped;
        this.recordExit('broker', `broker node ${stopped} gone`, '');
      } else {
        const process = this.service(target).process;
        this.recordExit(target, describeExit({ code: process.child.exitCode, signal: process.child.signalCode }), process.logs);
      }
      this.recover(target);
    }
  }

  private recordExit(target: ChaosTarget, exit: string, logs: string): void {
    const atMs = Date.now() - this.startedAt;
    this.unexpectedExits.push({ target, atMs, exit, logTail: tail(logs) });
    this.log(`UNEXPECTED EXIT of ${target} at ${atMs} ms: ${exit}`);
  }

  /** Best effort: a process that does not answer within the scrape's timeout adds nothing. */
  private async scrape(target: ServiceTarget): Promise<void> {
    const service = this.service(target);
    if (!service.process.isRunning) return;
    try {
      const [duplicates, processed, deadLettered] = await Promise.all(
        ['inbox_duplicates_total', 'inbox_processed_total', 'inbox_dead_lettered_total'].map((name) => scrapeMetric(service.baseUrl, name)),
      );
      this.inbox.duplicates += duplicates;
      this.inbox.processed += processed;
      this.inbox.deadLettered += deadLettered;
    } catch {
      // Not answering: its counters are lost, the database still tells the truth.
    }
  }
}
