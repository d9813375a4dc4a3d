import { describe, expect, it } from '@jest/globals';
import { DEFAULT_CHAOS_OPTIONS, parseChaosArgs } from './chaos-options.js';
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

  it('when shuffling the targets, then each appears exactly once', () => {
    const targets = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(new SeededRandom(9).shuffle(targets).sort()).toEqual(targets);
  });
});
