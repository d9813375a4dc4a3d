import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource, QueryRunner } from 'typeorm';
import { oneConnectionDataSources, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import { PostgresTrafficMetrics, postgresTrafficCounts } from './postgres-traffic.counter.js';
import type { PreparingClient } from './preparing-client.js';

/**
 * Every pool connection counts the round trips and statements it costs Postgres, from the server's
 * answers, with prepared statements on or off; the counts are exported as Prometheus counters.
 * Each case runs on a one-connection pool with nothing else in this process using Postgres, so the
 * difference of the process-wide counts is the case's own. Real Postgres.
 */
const { serverUrl } = testInfrastructure();
const ADD = 'INSERT INTO notes (body) VALUES ($1)';
const TAKE = 'INSERT INTO keys (key) VALUES ($1)';

describe('Postgres round trips and statements counted per process (real Postgres)', () => {
  let database: string;
  const dataSources = oneConnectionDataSources(serverUrl, () => database);
  const dataSourceWith = (preparedStatements: boolean) => dataSources.open(preparedStatements);
  /** What `work` cost, as counted by the process. */
  const cost = async (work: () => Promise<unknown>) => {
    const before = postgresTrafficCounts();
    await work();
    const after = postgresTrafficCounts();
    return { roundTrips: after.roundTrips - before.roundTrips, statements: after.statements - before.statements };
  };

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'db_traffic');
    const setup = await dataSourceWith(false);
    await setup.query("CREATE TABLE notes (body text); CREATE TABLE keys (key text PRIMARY KEY); INSERT INTO keys VALUES ('taken')");
  });

  afterAll(async () => {
    await dataSources.closeAll();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  describe('with prepared statements (the default)', () => {
    let runner: QueryRunner;
    let client: PreparingClient;

    beforeAll(async () => {
      const dataSource = await dataSourceWith(true);
      runner = dataSource.createQueryRunner();
      client = (await runner.connect()) as PreparingClient;
      // Parsed once outside any transaction: only a parsed text travels with BEGIN or is held.
      await runner.query(ADD, ['warm-up']);
      await runner.query(TAKE, ['warm-up']);
    });

    afterAll(() => runner?.release());

    it('when a transaction sends BEGIN with its first statement, then it is two round trips and three statements', async () => {
      const counted = await cost(async () => {
        await runner.startTransaction();
        await runner.query(ADD, ['one']);
        await runner.commitTransaction();
      });
      expect(counted).toEqual({ roundTrips: 2, statements: 3 });
    });

    it('when its writes are held for the COMMIT, then the whole transaction is one round trip of four statements', async () => {
      const counted = await cost(async () => {
        await runner.startTransaction();
        expect(client.holdWrite(ADD, ['two'])).toBe(true);
        expect(client.holdWrite(TAKE, ['new key'])).toBe(true);
        await runner.commitTransaction();
      });
      expect(counted).toEqual({ roundTrips: 1, statements: 4 });
    });

    it('when a held write fails, then the statements Postgres skipped after it are not counted, and the rollback is one more of each', async () => {
      const counted = await cost(async () => {
        await runner.startTransaction();
        expect(client.holdWrite(TAKE, ['taken'])).toBe(true);
        expect(client.holdWrite(ADD, ['never written'])).toBe(true);
        await expect(runner.commitTransaction()).rejects.toMatchObject({ code: '23505' });
        await runner.rollbackTransaction();
      });
      // BEGIN and the failed INSERT ran; the second INSERT and the COMMIT were skipped; then ROLLBACK.
      expect(counted).toEqual({ roundTrips: 2, statements: 3 });
      expect(await runner.query('SELECT count(*)::int AS n FROM notes WHERE body = $1', ['never written'])).toEqual([{ n: 0 }]);
    });
  });

  describe('with prepared statements switched off', () => {
    let dataSource: DataSource;

    beforeAll(async () => {
      dataSource = await dataSourceWith(false);
    });

    it('when a transaction runs, then every statement is its own round trip', async () => {
      const counted = await cost(() => dataSource.transaction((manager) => manager.query(ADD, ['three'])));
      expect(counted).toEqual({ roundTrips: 3, statements: 3 });
    });

    it('when one simple query carries several statements, then they are one round trip and each a statement', async () => {
      const counted = await cost(() => dataSource.query('SELECT 1; SELECT 2; SELECT 3'));
      expect(counted).toEqual({ roundTrips: 1, statements: 3 });
    });

    it('when a statement fails, then it counts as one statement and one round trip', async () => {
      const counted = await cost(async () => {
        await expect(dataSource.query(TAKE, ['taken'])).rejects.toMatchObject({ code: '23505' });
        // pg rejects on the ErrorResponse, before the ReadyForQuery that ends the round trip; the
        // next query on the one connection is sent after it, and costs one of each itself.
        await dataSource.query('SELECT 1');
      });
      expect(counted).toEqual({ roundTrips: 2, statements: 2 });
    });
  });

  it('when the registry is scraped, then postgres_round_trips_total and postgres_statements_total report what was counted since the exporter started', async () => {
    const registry = new Registry();
    new PostgresTrafficMetrics(registry);
    const value = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
    const first = { roundTrips: await value('postgres_round_trips_total'), statements: await value('postgres_statements_total') };

    const dataSource = await dataSourceWith(false);
    const counted = await cost(() => dataSource.query('SELECT 1; SELECT 2'));
    const second = { roundTrips: await value('postgres_round_trips_total'), statements: await value('postgres_statements_total') };

    expect(counted).toEqual({ roundTrips: 1, statements: 2 });
    // Everything this file counted before the exporter started is reported at its first scrape too.
    expect(first.roundTrips).toBeGreaterThan(0);
    expect(first.statements).toBeGreaterThan(0);
    expect(second.roundTrips - first.roundTrips).toBeGreaterThanOrEqual(counted.roundTrips);
    expect(second).toEqual(postgresTrafficCounts());
    // A second exporter on the same registry would double the series: it is left out.
    expect(() => new PostgresTrafficMetrics(registry)).not.toThrow();
    expect(await value('postgres_statements_total')).toBe(postgresTrafficCounts().statements);
  });
});
