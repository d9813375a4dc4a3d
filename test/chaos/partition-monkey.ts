import type { LinkCut, NetworkLab, NetworkPlacement } from '@tools/local-stack';
import type { ChaosCluster, ServiceTarget } from './chaos-cluster.js';
import {
  PARTITION_KINDS,
  type PartitionKind,
  type PartitionSchedule,
  type PartitionTarget,
  type PlannedCut,
} from './partition-schedule.js';
import type { SeededRandom } from './seeded-random.js';

/** The partitions of one soak, for its summary. */
export interface PartitionTally {
  /** Cuts made (and healed) per kind. */
  byKind: Record<PartitionKind, number>;
  /** Cuts held longer than the consumers' session timeout. */
  beyondSession: number;
  /** The longest a cut was held, ms. */
  longestMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Cuts links at random while the soak runs and heals each after its hold ({@link PartitionSchedule}
 * says what, where and how long; the gaps between cuts are jittered around `everyMs`). One cut per
 * namespace at a time, one broker node cut at a time, and nothing that is down (killed, starting)
 * is cut: `isDown` is the kill monkey's view. The kill monkey in turn spares what is cut (see
 * {@link isCut}), so a process never starts behind a cut (an app that cannot reach Kafka or
 * Postgres at start-up waits for them, and its restart would time the cut). {@link stop} heals
 * every cut before it resolves.
 */
export class PartitionMonkey {
  readonly tally: PartitionTally = {
    byKind: Object.fromEntries(PARTITION_KINDS.map((kind) => [kind, 0])) as Record<PartitionKind, number>,
    beyondSession: 0,
    longestMs: 0,
  };
  /** Targets with a cut in place, or being put in place (marked before the first await, so the kill monkey sees it at once). */
  private readonly active = new Map<PartitionTarget, PartitionKind>();
  private readonly holds = new Set<Promise<void>>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  /** Why the loop ended early (a cut that could not be made); {@link stop} rethrows it. */
  private failure: Error | undefined;

  constructor(
    private readonly cluster: ChaosCluster,
    private readonly lab: NetworkLab,
    private readonly schedule: PartitionSchedule,
    private readonly random: SeededRandom,
    private readonly everyMs: number,
    private readonly sessionTimeoutMs: number,
    private readonly isDown: (target: ServiceTarget | 'broker') => boolean,
    private readonly log: (line: string) => void,
  ) {}

  get total(): number {
    return Object.values(this.tally.byKind).reduce((sum, n) => sum + n, 0);
  }

  /** True while `target` (a replica, or `broker`: any node) is cut or being cut. */
  isCut(target: ServiceTarget | 'broker'): boolean {
    if (target !== 'broker') return this.active.has(target);
    return [...this.active.values()].includes('broker-brokers');
  }

  start(): void {
    this.loop = this.run().catch((error: unknown) => {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.log(`partitions stopped: ${(error as Error).message}`);
    });
  }

  /** Ends the cuts and heals every one still in place (the lab's too, whatever made it). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
    while (this.holds.size > 0) await Promise.all(this.holds);
    await this.lab.healAll();
    if (this.failure) throw this.failure;
  }

  private async run(): Promise<void> {
    let nextCutAt = Date.now() + this.gap();
    while (!this.stopping) {
      if (Date.now() < nextCutAt) {
        await sleep(Math.min(100, nextCutAt - Date.now()));
        continue;
      }
      const planned = this.schedule.next((kind, target) => this.mayCut(kind, target));
      if (!planned) {
        await sleep(100);
        continue;
      }
      this.active.set(planned.target, planned.kind);
      try {
        const cut = await this.apply(planned);
        this.tally.byKind[planned.kind]++;
        this.log(
          `CUT ${planned.target} (${planned.kind}) for ${planned.holdMs} ms (#${this.total}; cut now: ${[...this.active.keys()].join(', ')})`,
        );
        this.hold(planned, cut);
      } catch (error) {
        this.active.delete(planned.target);
        throw error;
      }
      nextCutAt = Date.now() + this.gap();
    }
  }

  private gap(): number {
    return Math.round(this.everyMs * (0.5 + this.random.next()));
  }

  private mayCut(kind: PartitionKind, target: PartitionTarget): boolean {
    if (this.active.has(target)) return false;
    if (kind === 'broker-brokers') return !this.isCut('broker') && !this.isDown('broker');
    return !this.isDown(target as ServiceTarget);
  }

  /** The namespace that drops, the peers it drops, and the port when only one service of a peer is cut. */
  private async apply({ kind, target }: PlannedCut): Promise<LinkCut> {
    const network = this.cluster.network!;
    const brokers = this.cluster.broker.placements!;
    if (kind === 'broker-brokers') {
      const node = Number(target.slice('node-'.length));
      const others = brokers.filter((_, index) => index !== node - 1).map((placement) => placement.address);
      return this.lab.cut(brokers[node - 1], others);
    }
    const from: NetworkPlacement = network.placements[target as ServiceTarget];
    if (kind === 'app-broker')
      return this.lab.cut(
        from,
        brokers.map((placement) => placement.address),
      );
    if (kind === 'inventory-loyalty') return this.lab.cut(from, [network.placements.loyalty.address]);
    // Postgres behind the gateway's relay: only its port, so the token issuer stays reachable.
    return this.lab.cut(from, [this.lab.gateway], Number(new URL(this.cluster.serverUrl).port || 5432));
  }

  private hold(planned: PlannedCut, cut: LinkCut): void {
    const held = (async () => {
      const healAt = cut.since + planned.holdMs;
      while (!this.stopping && Date.now() < healAt) await sleep(Math.min(100, healAt - Date.now()));
      await cut.heal();
      const heldMs = Date.now() - cut.since;
      this.active.delete(planned.target);
      if (heldMs > this.sessionTimeoutMs) this.tally.beyondSession++;
      this.tally.longestMs = Math.max(this.tally.longestMs, heldMs);
      this.log(`healed ${planned.target} (${planned.kind}) after ${heldMs} ms`);
    })();
    this.holds.add(held);
    void held.finally(() => this.holds.delete(held));
  }
}
