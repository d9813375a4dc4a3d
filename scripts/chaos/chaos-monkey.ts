import { describeExit, scrapeMetric, type ServiceProcess } from '@app/testing';
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

const tail = (text: string, lines = 30) => text.split('\n').slice(-lines).join('\n');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kills a random process with SIGKILL every few seconds and brings it back, until stopped. One
 * victim at a time: a restart is awaited before the next kill (an app started while the broker is
 * down would fail its start-up by design, which is not the failure this soak is after). Victims
 * are drawn from a seeded shuffle of all six targets, round after round, so every process (the
 * broker included) dies once in every six kills.
 *
 * Meanwhile a watcher notices any process that exits on its own: that is recorded as a violation
 * (no process may die of the chaos it survives) and the process is restarted so the soak goes on.
 */
export class ChaosMonkey {
  readonly kills = Object.fromEntries(CHAOS_TARGETS.map((target) => [target, 0])) as Record<ChaosTarget, number>;
  readonly unexpectedExits: UnexpectedExit[] = [];
  readonly inbox: InboxTally = { duplicates: 0, processed: 0, deadLettered: 0 };
  private readonly startedAt = Date.now();
  private readonly beingKilled = new Set<ChaosTarget>();
  private exclusive: Promise<unknown> = Promise.resolve();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private watcher: NodeJS.Timeout | undefined;
  private deck: ChaosTarget[] = [];

  constructor(
    private readonly cluster: ChaosCluster,
    private readonly random: SeededRandom,
    private readonly killEveryMs: number,
    private readonly log: (line: string) => void,
  ) {}

  get totalKills(): number {
    return Object.values(this.kills).reduce((sum, n) => sum + n, 0);
  }

  start(): void {
    this.watcher = setInterval(() => void this.watch(), 250);
    this.loop = this.run();
  }

  /** Ends the kills, waits for the last victim to be back, and stops watching. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
    await this.exclusive;
    clearInterval(this.watcher);
    await this.watch();
    await this.exclusive;
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
      await this.serially(() => this.killAndRestart(victim));
      nextKillAt = Date.now() + this.jitter();
    }
  }

  private jitter(): number {
    return Math.round(this.killEveryMs * (0.5 + this.random.next()));
  }

  private nextVictim(): ChaosTarget {
    if (this.deck.length === 0) this.deck = this.random.shuffle(CHAOS_TARGETS);
    return this.deck.shift()!;
  }

  private serially<T>(action: () => Promise<T>): Promise<T> {
    const result = this.exclusive.then(action);
    this.exclusive = result.catch(() => undefined);
    return result;
  }

  private service(target: ServiceTarget): ServiceProcess {
    return this.cluster.processes[target];
  }

  private async killAndRestart(target: ChaosTarget): Promise<void> {
    this.beingKilled.add(target);
    try {
      if (target === 'broker') {
        await this.cluster.broker.kill();
        this.kills.broker++;
        this.log(`SIGKILL broker (#${this.totalKills})`);
        await this.cluster.broker.resume();
      } else {
        await this.scrape(target);
        await this.service(target).kill();
        this.kills[target]++;
        this.log(`SIGKILL ${target} (#${this.totalKills})`);
        await this.restartService(target);
      }
    } finally {
      this.beingKilled.delete(target);
    }
  }

  /** Restarts `target`; a start-up that fails is an unexpected exit, and is tried again. */
  private async restartService(target: ServiceTarget): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.service(target).restart();
        return;
      } catch (error) {
        this.recordExit(target, 'exited during start-up', (error as Error).message);
        if (attempt >= 5) throw error;
      }
    }
  }

  private async watch(): Promise<void> {
    for (const target of CHAOS_TARGETS) {
      if (this.beingKilled.has(target)) continue;
      const dead = target === 'broker' ? !this.cluster.broker.isRunning() : !this.service(target).process.isRunning;
      if (!dead) continue;
      this.beingKilled.add(target);
      void this.serially(async () => {
        try {
          if (target === 'broker') {
            this.recordExit('broker', 'broker process gone', '');
            await this.cluster.broker.resume();
          } else {
            const process = this.service(target).process;
            this.recordExit(target, describeExit(await process.waitForExit(1000)), process.logs);
            await this.restartService(target);
          }
        } finally {
          this.beingKilled.delete(target);
        }
      }).catch((error: unknown) => this.log(`could not restart ${target}: ${(error as Error).message.slice(0, 500)}`));
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
