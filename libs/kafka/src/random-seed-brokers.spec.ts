import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { randomSeedBrokers } from './random-seed-brokers.js';

interface ConnectionPool {
  host: string;
  port: number;
}

/** kafkajs 2.2.4's own seed picker: every new client (producer, consumer, admin) builds one. */
const load = createRequire(import.meta.url);
const connectionPoolBuilder = load('kafkajs/src/cluster/connectionPoolBuilder.js') as (options: {
  brokers: string[] | (() => string[]);
  clientId: string;
  requestTimeout: number;
  logger: unknown;
}) => { build(): Promise<ConnectionPool> };

const BROKERS = ['10.0.0.1:9092', '10.0.0.2:9092', '10.0.0.3:9092'];
const CLIENTS = 90;

const logger = { namespace: () => logger, info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined };

/** The broker each of `clients` new kafkajs clients would ask first. */
async function seedsOf(brokers: string[] | (() => string[]), clients = CLIENTS): Promise<string[]> {
  const seeds: string[] = [];
  for (let client = 0; client < clients; client += 1) {
    const pool = await connectionPoolBuilder({ brokers, clientId: 'seed-test', requestTimeout: 1000, logger }).build();
    seeds.push(`${pool.host}:${pool.port}`);
  }
  return seeds;
}

describe('randomSeedBrokers', () => {
  it('when kafkajs is given a plain list, then every new client seeds from its first broker (why the list is not passed as it is)', async () => {
    expect(new Set(await seedsOf(BROKERS))).toEqual(new Set([BROKERS[0]]));
  });

  it('when new clients pick their seed, then every broker is picked, none by more than twice its share', async () => {
    const seeds = await seedsOf(randomSeedBrokers(BROKERS));
    const counts = new Map(BROKERS.map((broker) => [broker, seeds.filter((seed) => seed === broker).length]));
    // 90 picks of 3: a broker never picked, or picked over 60 times, has odds below 1e-9.
    for (const [, count] of counts) expect(count).toBeGreaterThan(0);
    for (const [, count] of counts) expect(count).toBeLessThanOrEqual((2 * CLIENTS) / BROKERS.length);
  });

  it('when called, then it answers every broker once and leaves the configured list as it was', () => {
    const configured = [...BROKERS];
    const seeds = randomSeedBrokers(configured);
    for (let call = 0; call < 20; call += 1) expect([...seeds()].sort()).toEqual([...BROKERS].sort());
    expect(configured).toEqual(BROKERS);
  });

  it('when there is one broker, then it is always the seed', async () => {
    expect(new Set(await seedsOf(randomSeedBrokers([BROKERS[1]]), 5))).toEqual(new Set([BROKERS[1]]));
  });
});
