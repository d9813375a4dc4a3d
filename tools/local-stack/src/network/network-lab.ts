import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { runCommand, runQuietly } from './ip-command.js';
import { HostRelay } from './host-relay.js';
import { LinkCut, PARTITION_CHAIN } from './link-cut.js';

/** A process's place in a {@link NetworkLab}: how to start it there and where it is reached. */
export interface NetworkPlacement {
  /** The network namespace it runs in. */
  readonly namespace: string;
  /** Its own address: it listens and advertises here, and everything else reaches it here. */
  readonly address: string;
  /** The command that runs a program inside the namespace (`ip netns exec NAME`), before the program and its arguments. */
  readonly wrapper: readonly string[];
  /**
   * `env` with every `127.0.0.1:<port>` and `localhost:<port>` (Postgres, the token issuer) turned
   * into the gateway's address, where a {@link HostRelay} forwards that port to the host's
   * loopback; the variables in `keep` (a token's expected issuer) are left as they are.
   */
  reachableEnv(env: NodeJS.ProcessEnv, keep?: readonly string[]): Promise<NodeJS.ProcessEnv>;
}

/**
 * The family of every lab's names: `pm<pid>x<lab>` (pid in base 32, which has no `x`; lab in hex),
 * so a crashed run's leftovers are found by their pid. `pl<pid>x<n>` (both base 36) is the earlier
 * form, still cleaned up as such, never read as the new one.
 */
const NAMES = [
  { pattern: /^pm([0-9a-v]+)x[0-9a-f]+/, radix: 32 },
  { pattern: /^pl([0-9a-z]+)x([0-9a-z]+)/, radix: 36 },
];
const LOOPBACK_PORT = /\b(?:127\.0\.0\.1|localhost):(\d{1,5})\b/g;

let labs = 0;
/** Four hex digits at most, so `<prefix>h<index>` stays within the 15 characters of a link name. */
const LAB_IDS = 16 ** 4;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Host-side addresses in use, so a lab's subnet never shadows a real one. */
async function addressesInUse(): Promise<string> {
  return runCommand('ip', ['-4', '-o', 'addr', 'show']);
}

/**
 * A private network on this machine for tests that cut links, not processes: a bridge on the host
 * with a gateway address (`10.231.X.1/24`), and one network namespace per process, joined to the
 * bridge by a veth pair, with its own address. A process runs in its namespace with
 * `ip netns exec` ({@link NetworkPlacement.wrapper}), listens on its own address, and reaches the
 * others on theirs; the host (the test, Postgres and the issuer through {@link HostRelay}s) is the
 * gateway. {@link cut} drops packets silently in both directions with iptables rules inside a
 * namespace, both ends alive; {@link LinkCut.heal} deletes them. {@link destroy} deletes the
 * namespaces (with their veths, rules and sockets) and the bridge; {@link create} first removes what
 * a crashed run of another process left. Needs root, `ip` and `iptables`.
 */
export class NetworkLab {
  private readonly members: NetworkPlacement[] = [];
  private readonly relays = new Map<number, HostRelay | undefined>();
  private readonly cuts = new Set<LinkCut>();

  private constructor(
    private readonly prefix: string,
    private readonly subnet: string,
  ) {}

  /** The host's address on the lab's bridge. */
  get gateway(): string {
    return `${this.subnet}.1`;
  }

  /** Creates the bridge; removes the namespaces and bridges of labs whose process is gone. */
  static async create(): Promise<NetworkLab> {
    await NetworkLab.removeStale();
    // The clock too, not a counter alone: Jest loads this module afresh for each test file, so a
    // counter restarts at 0 and the next file's lab got the names of one whose veths the kernel was
    // still deleting (`RTNETLINK answers: File exists`).
    const prefix = `pm${process.pid.toString(32)}x${((Date.now() + labs++) % LAB_IDS).toString(16)}`;
    const used = await addressesInUse();
    const third = [...Array(256).keys()].map((i) => (process.pid + i) % 256).find((x) => !used.includes(`10.231.${x}.`));
    if (third === undefined) throw new Error('no free 10.231.X.0/24 subnet for a network lab');
    const lab = new NetworkLab(prefix, `10.231.${third}`);
    try {
      await runCommand('ip', ['link', 'add', lab.bridge, 'type', 'bridge']);
      await runCommand('ip', ['addr', 'add', `${lab.gateway}/24`, 'dev', lab.bridge]);
      await runCommand('ip', ['link', 'set', lab.bridge, 'up']);
    } catch (error) {
      await lab.destroy();
      throw error;
    }
    return lab;
  }

  /** Deletes every lab namespace and bridge whose creating process no longer runs. */
  static async removeStale(): Promise<void> {
    const stale = (name: string) =>
      NAMES.some(({ pattern, radix }) => {
        const match = pattern.exec(name);
        return match !== null && !pidAlive(parseInt(match[1], radix));
      });
    const namespaces = (await runCommand('ip', ['netns', 'list'])).split('\n').map((line) => line.split(' ')[0]);
    for (const namespace of namespaces.filter(stale)) {
      await runQuietly('ip', ['netns', 'delete', namespace]);
      rmSync(`/etc/netns/${namespace}`, { recursive: true, force: true });
    }
    const links = (await runCommand('ip', ['-o', 'link', 'show'])).split('\n').map((line) => line.split(': ')[1]?.split('@')[0] ?? '');
    for (const link of links.filter(stale)) await runQuietly('ip', ['link', 'delete', link]);
  }

  private get bridge(): string {
    return `${this.prefix}b`;
  }

  /**
   * A new namespace `<prefix>-<name>` on the bridge, its loopback up, its default route via the
   * gateway and an empty {@link PARTITION_CHAIN} hooked into INPUT and OUTPUT.
   */
  async join(name: string): Promise<NetworkPlacement> {
    const index = this.members.length;
    if (index > 200) throw new Error('a network lab holds at most 200 namespaces');
    const namespace = `${this.prefix}-${name}`;
    const address = `${this.subnet}.${10 + index}`;
    const hostEnd = `${this.prefix}h${index.toString(36)}`;
    const innerEnd = `${this.prefix}n${index.toString(36)}`;
    const inside = (...args: string[]) => runCommand('ip', ['netns', 'exec', namespace, ...args]);
    await runCommand('ip', ['netns', 'add', namespace]);
    const placement: NetworkPlacement = {
      namespace,
      address,
      wrapper: ['ip', 'netns', 'exec', namespace],
      reachableEnv: (env, keep = []) => this.reachableEnv(env, keep),
    };
    this.members.push(placement);
    await runCommand('ip', ['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', innerEnd, 'netns', namespace]);
    await runCommand('ip', ['link', 'set', hostEnd, 'master', this.bridge, 'up']);
    await inside('ip', 'link', 'set', 'lo', 'up');
    await inside('ip', 'addr', 'add', `${address}/24`, 'dev', innerEnd);
    await inside('ip', 'link', 'set', innerEnd, 'up');
    await inside('ip', 'route', 'add', 'default', 'via', this.gateway);
    this.writeResolverFiles();
    await inside('iptables', '-N', PARTITION_CHAIN);
    await inside('iptables', '-A', 'INPUT', '-j', PARTITION_CHAIN);
    await inside('iptables', '-A', 'OUTPUT', '-j', PARTITION_CHAIN);
    return placement;
  }

  /**
   * Cuts `from` off from each of `peers` (other members, or the gateway's address): every packet
   * between them is dropped, both ways, silently (no reset, no ICMP), on connections open or new;
   * `port` narrows the cut to TCP to or from that port of the peers (one service on the gateway).
   */
  async cut(from: NetworkPlacement, peers: readonly string[], port?: number): Promise<LinkCut> {
    const cut = await LinkCut.apply(from.namespace, peers, port);
    this.cuts.add(cut);
    void cut.healed.then(() => this.cuts.delete(cut));
    return cut;
  }

  /** Heals every cut still in place. */
  async healAll(): Promise<void> {
    for (const cut of [...this.cuts]) await cut.heal();
  }

  /**
   * `/etc/netns/<namespace>/hosts`, which `ip netns exec` mounts over `/etc/hosts`, naming every
   * member and the gateway. Why: the broker looks up the name of each client address (SASL); an
   * address no file names goes to DNS, which this machine cannot reach, and each new connection
   * then waits out the resolver's timeouts (10 s measured) before it authenticates. The machine's
   * own name too: Java resolves it at start-up (`InetAddress.getLocalHost`), and without it each
   * broker node waited out those timeouts twice before it started (26 s against 7 s on the host).
   * And `/etc/netns/<namespace>/resolv.conf`, mounted over `/etc/resolv.conf`: a name server on the
   * namespace's own loopback, where nothing listens, so what the file does not name (an IPv6
   * lookup of a name it gives only an IPv4 address for) is refused at once instead of timing out.
   * Rewritten in place (same file) on each join, so processes already running see the new member.
   */
  private writeResolverFiles(): void {
    const lines = [
      `127.0.0.1 localhost ${hostname()}`,
      `${this.gateway} ${this.prefix}-gateway`,
      ...this.members.map((m) => `${m.address} ${m.namespace}`),
    ];
    for (const member of this.members) {
      mkdirSync(`/etc/netns/${member.namespace}`, { recursive: true });
      writeFileSync(`/etc/netns/${member.namespace}/hosts`, `${lines.join('\n')}\n`);
      writeFileSync(`/etc/netns/${member.namespace}/resolv.conf`, 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n');
    }
  }

  private async reachableEnv(env: NodeJS.ProcessEnv, keep: readonly string[]): Promise<NodeJS.ProcessEnv> {
    const result: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined || keep.includes(name)) {
        result[name] = value;
        continue;
      }
      for (const [, port] of value.matchAll(LOOPBACK_PORT)) await this.relay(Number(port));
      result[name] = value.replace(LOOPBACK_PORT, (_, port: string) => `${this.gateway}:${port}`);
    }
    return result;
  }

  private async relay(port: number): Promise<void> {
    if (!this.relays.has(port)) this.relays.set(port, await HostRelay.start(this.gateway, port));
  }

  /** Stops the relays, deletes every namespace (its veth and rules with it) and the bridge. Safe to call twice. */
  async destroy(): Promise<void> {
    for (const relay of this.relays.values()) await relay?.stop();
    this.relays.clear();
    for (const [index, member] of this.members.splice(0).entries()) {
      // The host end first: deleting one end deletes the pair now, where a namespace's veths go
      // when the kernel gets round to it.
      await runQuietly('ip', ['link', 'delete', `${this.prefix}h${index.toString(36)}`]);
      await runQuietly('ip', ['netns', 'delete', member.namespace]);
      rmSync(`/etc/netns/${member.namespace}`, { recursive: true, force: true });
    }
    await runQuietly('ip', ['link', 'delete', this.bridge]);
  }
}
