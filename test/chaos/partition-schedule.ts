import type { SeededRandom } from './seeded-random.js';

/**
 * The partitions the soak cuts, each a link with both ends alive:
 * - `app-broker`: an orders or inventory replica loses every broker node (its consumer session
 *   may expire, its relay's sends time out);
 * - `app-postgres`: a replica (loyalty included) loses Postgres (its transactions stall, the
 *   server keeps its side of the connection);
 * - `inventory-loyalty`: an inventory replica loses loyalty (its commands wait and are re-sent);
 * - `broker-brokers`: one node of a cluster loses the other nodes, clients still reach it.
 */
export const PARTITION_KINDS = ['app-broker', 'app-postgres', 'inventory-loyalty', 'broker-brokers'] as const;
export type PartitionKind = (typeof PARTITION_KINDS)[number];

/** What is cut: the namespace whose rules drop the packets, a service replica or a broker node (`node-<n>`). */
export type PartitionTarget = 'orders-1' | 'orders-2' | 'inventory-1' | 'inventory-2' | 'loyalty' | `node-${number}`;

/** The replicas each kind may cut (`broker-brokers` cuts nodes, listed by {@link PartitionSchedule}). */
const SERVICE_TARGETS: Record<Exclude<PartitionKind, 'broker-brokers'>, PartitionTarget[]> = {
  'app-broker': ['orders-1', 'orders-2', 'inventory-1', 'inventory-2'],
  'app-postgres': ['orders-1', 'orders-2', 'inventory-1', 'inventory-2', 'loyalty'],
  'inventory-loyalty': ['inventory-1', 'inventory-2'],
};

/** One cut to make: what, where, and for how long before it is healed. */
export interface PlannedCut {
  kind: PartitionKind;
  target: PartitionTarget;
  holdMs: number;
}

/** The shortest hold, as a share of the session timeout: long enough for requests to time out. */
const MIN_HOLD_SHARE = 0.25;
/** The longest hold, as a share of the session timeout: past it, so a cut consumer's session expires in about half the cuts. */
const MAX_HOLD_SHARE = 2;

/**
 * The seeded script of the partitions: kinds come from a shuffled deck, round after round, so each
 * kind is cut equally often; the target is drawn among those of its kind that may be cut now (the
 * caller says which: none already cut, none down); the hold is uniform between a quarter and twice
 * the consumers' session timeout. The same seed gives the same script; which targets are free is
 * the machine's timing, so the interleaving is not replayed.
 */
export class PartitionSchedule {
  private deck: PartitionKind[] = [];
  private readonly kinds: PartitionKind[];

  constructor(
    private readonly random: SeededRandom,
    private readonly kafkaNodes: number,
    private readonly sessionTimeoutMs: number,
  ) {
    // Cutting the only broker from "the others" cuts nothing.
    this.kinds = PARTITION_KINDS.filter((kind) => kind !== 'broker-brokers' || kafkaNodes > 1);
  }

  /** The kinds this schedule cuts (no `broker-brokers` on a single broker). */
  get cutKinds(): readonly PartitionKind[] {
    return this.kinds;
  }

  /** Every target of `kind`. */
  targetsOf(kind: PartitionKind): PartitionTarget[] {
    if (kind !== 'broker-brokers') return SERVICE_TARGETS[kind];
    return Array.from({ length: this.kafkaNodes }, (_, i): PartitionTarget => `node-${i + 1}`);
  }

  /** The hold lies within these bounds (ms), both included. */
  get holdBounds(): { minMs: number; maxMs: number } {
    return { minMs: Math.round(this.sessionTimeoutMs * MIN_HOLD_SHARE), maxMs: Math.round(this.sessionTimeoutMs * MAX_HOLD_SHARE) };
  }

  /**
   * The next cut, or undefined when no target of the next kind in the deck may be cut now (that
   * kind stays on top, and is tried again next time).
   */
  next(mayCut: (kind: PartitionKind, target: PartitionTarget) => boolean): PlannedCut | undefined {
    if (this.deck.length === 0) this.deck = this.random.shuffle(this.kinds);
    const kind = this.deck[0];
    const free = this.targetsOf(kind).filter((target) => mayCut(kind, target));
    if (free.length === 0) return undefined;
    this.deck.shift();
    const { minMs, maxMs } = this.holdBounds;
    return { kind, target: this.random.pick(free), holdMs: this.random.int(minMs, maxMs) };
  }
}
