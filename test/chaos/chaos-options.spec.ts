import { describe, expect, it } from '@jest/globals';
import { DEFAULT_CHAOS_OPTIONS, parseChaosArgs } from './chaos-options.js';
import { PartitionSchedule, type PartitionTarget } from './partition-schedule.js';
import { SeededRandom } from './seeded-random.js';

describe('chaos soak options and seeded choices', () => {
  it('when flags are given in either form, then they override the defaults', () => {
    expect(
      parseChaosArgs(['--orders', '2000', '--rate=5', '--kill-every-ms', '1500', '--seed', '42', '--min-kills', '30', '--echo'], 7),
    ).toEqual({
      ...DEFAULT_CHAOS_OPTIONS,
      orders: 2000,
      rate: 5,
      killEveryMs: 1500,
      seed: 42,
      minKills: 30,
      minBrokerKills: 0,
      echo: true,
    });
    expect(parseChaosArgs([], 7).seed).toBe(7);
    expect(parseChaosArgs(['--kafka-nodes', '3', '--kill-brokers'], 7)).toMatchObject({ kafkaNodes: 3, killBrokers: true });
    expect(parseChaosArgs(['--no-kill-brokers'], 7)).toMatchObject({ kafkaNodes: 1, killBrokers: false });
    expect(() => parseChaosArgs(['--kafka-nodes', '0'])).toThrow(/--kafka-nodes must be 1 to 5/);
  });

  it('when a cluster soak kills brokers, then the kills go on until ten were broker kills, unless told otherwise', () => {
    expect(parseChaosArgs(['--kafka-nodes', '3', '--kill-brokers'], 7).minBrokerKills).toBe(10);
    expect(parseChaosArgs(['--kafka-nodes', '3', '--kill-brokers', '--min-broker-kills', '4'], 7).minBrokerKills).toBe(4);
    expect(parseChaosArgs(['--kafka-nodes', '3', '--no-kill-brokers'], 7).minBrokerKills).toBe(0);
    expect(parseChaosArgs(['--kill-brokers'], 7).minBrokerKills).toBe(0);
    expect(() => parseChaosArgs(['--no-kill-brokers', '--min-broker-kills', '3'], 7)).toThrow(/--min-broker-kills needs --kill-brokers/);
    expect(() => parseChaosArgs(['--kafka-nodes', '3', '--min-broker-kills=-1'], 7)).toThrow(
      /--min-broker-kills must be a non-negative integer/,
    );
  });

  it('when --partitions is given, then links are cut too, every ~4 s unless told otherwise', () => {
    expect(parseChaosArgs([], 7)).toMatchObject({ partitions: false, partitionEveryMs: 4000 });
    expect(parseChaosArgs(['--partitions'], 7)).toMatchObject({ partitions: true, partitionEveryMs: 4000 });
    expect(parseChaosArgs(['--partitions', '--kafka-nodes', '3', '--partition-every-ms=2500'], 7)).toMatchObject({
      partitions: true,
      kafkaNodes: 3,
      partitionEveryMs: 2500,
    });
    expect(() => parseChaosArgs(['--partition-every-ms', '2500'], 7)).toThrow(/--partition-every-ms needs --partitions/);
    expect(() => parseChaosArgs(['--partitions', '--partition-every-ms', '50'], 7)).toThrow(/--partition-every-ms must be at least 100/);
  });

  it('when a flag is unknown, then it is refused with the valid flags', () => {
    expect(() => parseChaosArgs(['--orders', '5', '--nope'])).toThrow(/'--nope'.*valid flags: --orders, --rate, .*--echo, --help/);
  });

  it('when values are malformed, then every problem is reported at once', () => {
    expect(() => parseChaosArgs(['--orders', 'many', '--kill-every-ms', '10'])).toThrow(
      /--orders needs a number, got many; --kill-every-ms must be at least 100/,
    );
  });

  it('when two generators share a seed, then they draw the same numbers, and a fork does not depend on draws elsewhere', () => {
    const draws = (random: SeededRandom) => Array.from({ length: 5 }, () => random.int(0, 1000));
    expect(draws(new SeededRandom(3))).toEqual(draws(new SeededRandom(3)));
    expect(draws(new SeededRandom(3))).not.toEqual(draws(new SeededRandom(4)));
    const busy = new SeededRandom(3);
    draws(busy);
    expect(draws(busy.fork('order-1'))).toEqual(draws(new SeededRandom(3).fork('order-1')));
    expect(draws(busy.fork('order-1'))).not.toEqual(draws(busy.fork('order-2')));
  });

  it('when partitions are drawn, then a seed replays them, each kind comes once a round, and holds straddle the session timeout', () => {
    const script = (seed: number, nodes: number, rounds: number) => {
      const schedule = new PartitionSchedule(new SeededRandom(seed), nodes, 6000);
      return Array.from({ length: rounds * schedule.cutKinds.length }, () => schedule.next(() => true)!);
    };
    expect(script(5, 1, 4)).toEqual(script(5, 1, 4));
    expect(script(5, 1, 4)).not.toEqual(script(6, 1, 4));
    // One broker: no broker-to-broker cut; three: all four kinds, each once in every round.
    expect(new Set(script(5, 1, 20).map((cut) => cut.kind))).toEqual(new Set(['app-broker', 'app-postgres', 'inventory-loyalty']));
    const cluster = script(5, 3, 20);
    for (let round = 0; round < 20; round++) expect(new Set(cluster.slice(round * 4, round * 4 + 4).map((cut) => cut.kind)).size).toBe(4);
    for (const cut of cluster) {
      expect(cut.holdMs).toBeGreaterThanOrEqual(1500);
      expect(cut.holdMs).toBeLessThanOrEqual(12_000);
      if (cut.kind === 'broker-brokers') expect(['node-1', 'node-2', 'node-3']).toContain(cut.target);
      if (cut.kind === 'inventory-loyalty') expect(['inventory-1', 'inventory-2']).toContain(cut.target);
      if (cut.kind === 'app-broker') expect(cut.target).not.toBe('loyalty');
    }
    expect(cluster.some((cut) => cut.holdMs > 6000)).toBe(true);
    expect(cluster.some((cut) => cut.holdMs < 6000)).toBe(true);
  });

  it('when a target may not be cut (already cut, or down), then it is never drawn, and a kind with none free waits on top of the deck', () => {
    const schedule = new PartitionSchedule(new SeededRandom(11), 1, 6000);
    const cut = new Set<PartitionTarget>(['inventory-1', 'orders-2']);
    for (let i = 0; i < 30; i++) {
      const next = schedule.next((_, target) => !cut.has(target))!;
      expect(cut.has(next.target)).toBe(false);
    }
    const blocked = new PartitionSchedule(new SeededRandom(11), 1, 6000);
    const first = blocked.next(() => true)!;
    expect(blocked.next(() => false)).toBeUndefined();
    const afterWait = blocked.next(() => true)!;
    // The kind refused a target was not skipped: the round still holds every kind once.
    const rest = blocked.next(() => true)!;
    expect(new Set([first.kind, afterWait.kind, rest.kind]).size).toBe(3);
  });

  it('when shuffling the targets, then each appears exactly once', () => {
    const targets = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(new SeededRandom(9).shuffle(targets).sort()).toEqual(targets);
  });
});
