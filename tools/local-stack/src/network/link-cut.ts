import { runCommand, runQuietly } from './ip-command.js';

/** The partitions' own chain in each namespace of a network lab, jumped to from INPUT and OUTPUT. */
export const PARTITION_CHAIN = 'PARTITION';

/**
 * One partition in place: the DROP rules in one namespace's {@link PARTITION_CHAIN} that cut it
 * off from some peers. Dropping (not rejecting) is the point: neither end learns of the cut from
 * the network, so each finds out only from its own timeouts, as over a failed switch or a
 * split availability zone.
 */
export class LinkCut {
  readonly healed: Promise<void>;
  private markHealed!: () => void;
  private done = false;

  private constructor(
    private readonly namespace: string,
    private readonly rules: string[][],
    /** When the rules went in (epoch ms). */
    readonly since: number,
  ) {
    this.healed = new Promise((resolve) => (this.markHealed = resolve));
  }

  static async apply(namespace: string, peers: readonly string[], port?: number): Promise<LinkCut> {
    const rules = peers.flatMap((peer) => [
      ['-d', peer, ...(port === undefined ? [] : ['-p', 'tcp', '--dport', String(port)]), '-j', 'DROP'],
      ['-s', peer, ...(port === undefined ? [] : ['-p', 'tcp', '--sport', String(port)]), '-j', 'DROP'],
    ]);
    const cut = new LinkCut(namespace, rules, Date.now());
    try {
      for (const rule of rules) await runCommand('ip', ['netns', 'exec', namespace, 'iptables', '-A', PARTITION_CHAIN, ...rule]);
    } catch (error) {
      await cut.heal();
      throw error;
    }
    return cut;
  }

  /** Deletes the rules: packets flow again; what was dropped meanwhile is for TCP to retransmit. Safe to call twice. */
  async heal(): Promise<void> {
    if (this.done) return;
    this.done = true;
    for (const rule of this.rules) await runQuietly('ip', ['netns', 'exec', this.namespace, 'iptables', '-D', PARTITION_CHAIN, ...rule]);
    this.markHealed();
  }
}
