import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { rotatingSeedBroker } from './rotating-seed-broker.js';

interface ConnectionPool {
  host: string;
  port: number;
}

interface PoolBuilder {
  build(): Promise<ConnectionPool>;
}

/** kafkajs 2.2.4's own seed picker: every new client (producer, consumer, admin) builds one. */
const load = createRequire(import.meta.url);
const connectionPoolBuilder = load('kafkajs/src/cluster/connectionPoolBuilder.js') as (options: {
  brokers: string[] | (() => string[]);
  clientId: string;
  requestTimeout: number;
  logger: unknown;
}) => PoolBuilder;

const BROKERS = ['10.0.0.1:9092', '10.0.0.2:9092', '10.0.0.3:9092'];

const logger = { namespace: () => logger, info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined };

function newClient(brokers: string[] | (() => string[])): PoolBuilder {
  return connectionPoolBuilder({ brokers, clientId: 'seed-test', requestTimeout: 1000, logger });
}

const address = (pool: ConnectionPool) => `${pool.host}:${pool.port}`;

/** The broker each of `clients` new kafkajs clients asks first. */
async function seedsOf(brokers: string[] | (() => string[]), clients: number): Promise<string[]> {
  const seeds: string[] = [];
  for (let client = 0; client < clients; client += 1) seeds.push(address(await newClient(brokers).build()));
  return seeds;
}

describe('rotatingSeedBroker', () => {
  it('when kafkajs is given the plain list, then every new client starts from its first broker (why the list is not passed as it is)', async () => {
    expect(new Set(await seedsOf(BROKERS, 12))).toEqual(new Set([BROKERS[0]]));
  });

  it('when new clients pick their seed one after another, then each run of as many clients as brokers starts once from each broker', async () => {
    const seeds = await seedsOf(rotatingSeedBroker(BROKERS), 4 * BROKERS.length);
    for (let start = 0; start + BROKERS.length <= seeds.length; start += 1) {
      expect(new Set(seeds.slice(start, start + BROKERS.length))).toEqual(new Set(BROKERS));
    }
  });

  it.each([2, 3])(
    'when a client of %i brokers finds its seed refusing and picks again, then it is given another broker each time until it has tried them all',
    async (count) => {
      const brokers = BROKERS.slice(0, count);
      const client = newClient(rotatingSeedBroker(brokers));
      // kafkajs builds a new seed on the same builder after a refused connection.
      const tried = [];
      for (let attempt = 0; attempt < count; attempt += 1) tried.push(address(await client.build()));
      expect(new Set(tried)).toEqual(new Set(brokers));
    },
  );

  it('when processes start, then their first clients do not all start from the same broker', async () => {
    // Each process builds its own rotation: 60 of them all starting from one broker of three has odds of 3^-59.
    const firsts = new Set<string>();
    for (let process = 0; process < 60; process += 1) firsts.add((await seedsOf(rotatingSeedBroker(BROKERS), 1))[0]);
    expect(firsts).toEqual(new Set(BROKERS));
  });

  it('when there is one broker, then it is always the seed; when there is none, then it says so', async () => {
    expect(new Set(await seedsOf(rotatingSeedBroker([BROKERS[1]]), 5))).toEqual(new Set([BROKERS[1]]));
    expect(() => rotatingSeedBroker([])).toThrow('rotatingSeedBroker needs at least one broker');
  });
});
