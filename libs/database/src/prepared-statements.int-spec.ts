import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource, QueryRunner } from 'typeorm';
import { oneConnectionDataSources, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/test-support';
import type { PreparingClient } from './preparing-client.js';

/**
 * Parameterised statements go to Postgres as named prepared statements, parsed once per
 * connection, unless `DATABASE_PREPARED_STATEMENTS=false` (a pooler that cannot follow them). Read
 * from the server's own `pg_prepared_statements` of the connection that ran them. A transaction's
 * BEGIN travels with its first prepared statement: round trips are counted by the server's
 * ReadyForQuery messages on the connection. Real Postgres.
 */
const { serverUrl } = testInfrastructure();
const LOOKUP = 'SELECT name FROM things WHERE id = $1';

describe('data source prepared statements (real Postgres)', () => {
  let database: string;
  const dataSources = oneConnectionDataSources(serverUrl, () => database);
  const dataSourceWith = (preparedStatements?: boolean) => dataSources.open(preparedStatements);
  const preparedTexts = async (dataSource: DataSource): Promise<string[]> =>
    (await dataSource.query('SELECT statement FROM pg_prepared_statements WHERE NOT from_sql ORDER BY prepare_time')).map(
      (row: { statement: string }) => row.statement,
    );

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'db_prepared');
    const setup = await dataSourceWith(false);
    await setup.query(
      "CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL); INSERT INTO things VALUES (1, 'one'), (2, 'two'); CREATE TABLE notes (body text); CREATE TABLE keys (key text PRIMARY KEY)",
    );
  });

  afterAll(async () => {
    await dataSources.closeAll();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  it('when a parameterised statement runs twice, then it is prepared once on its connection and both calls answer right', async () => {
    const dataSource = await dataSourceWith();
    expect(await dataSource.query(LOOKUP, [1])).toEqual([{ name: 'one' }]);
    expect(await dataSource.transaction((manager) => manager.query(LOOKUP, [2]))).toEqual([{ name: 'two' }]);
    // BEGIN, COMMIT and this read carry no parameters: nothing to reuse, so they are not prepared.
    expect(await preparedTexts(dataSource)).toEqual([LOOKUP]);
  });

  it("when a prepared statement fails, then the error is the statement's and the connection goes on", async () => {
    const dataSource = await dataSourceWith();
    await expect(dataSource.query('SELECT name FROM things WHERE id = $1::int', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    expect(await dataSource.query(LOOKUP, [1])).toEqual([{ name: 'one' }]);
  });

  it('when prepared statements are switched off, then nothing is prepared', async () => {
    const dataSource = await dataSourceWith(false);
    expect(await dataSource.query(LOOKUP, [1])).toEqual([{ name: 'one' }]);
    expect(await preparedTexts(dataSource)).toEqual([]);
  });

  describe('BEGIN with the first statement', () => {
    const ADD = 'INSERT INTO notes (body) VALUES ($1)';
    let dataSource: DataSource;
    let runner: QueryRunner;
    let roundTrips = 0;

    beforeAll(async () => {
      dataSource = await dataSourceWith();
      runner = dataSource.createQueryRunner();
      const client = (await runner.connect()) as { connection: { on(event: string, listener: () => void): void } };
      client.connection.on('readyForQuery', () => (roundTrips += 1));
    });

    afterAll(() => runner?.release());

    /** Round trips and the outcome of one transaction on the runner's connection. */
    const transaction = async (work: () => Promise<unknown>, end: 'commit' | 'rollback' = 'commit') => {
      roundTrips = 0;
      await runner.startTransaction();
      try {
        await work();
      } finally {
        await (end === 'commit' ? runner.commitTransaction() : runner.rollbackTransaction());
      }
      return roundTrips;
    };
    const notes = async (body: string) => Number((await runner.query('SELECT count(*) AS n FROM notes WHERE body = $1', [body]))[0].n);

    it('when the first statement is already prepared, then BEGIN travels with it: one round trip less, and it runs inside the transaction', async () => {
      const first = await transaction(() => runner.query(ADD, ['first']));
      const second = await transaction(() => runner.query(ADD, ['second']));
      expect({ first, second }).toEqual({ first: 3, second: 2 });

      await transaction(() => runner.query(ADD, ['rolled back']), 'rollback');
      expect([await notes('first'), await notes('second'), await notes('rolled back')]).toEqual([1, 1, 0]);
    });

    it('when the statement that carries BEGIN fails, then the transaction is aborted, rolls back, and the connection goes on', async () => {
      await runner.query('SELECT name FROM things WHERE id = $1::int', [1]);
      await expect(
        transaction(async () => {
          await runner.query(ADD, ['before the failure']);
          await runner.query('SELECT name FROM things WHERE id = $1::int', ['not a number']);
        }, 'rollback'),
      ).rejects.toMatchObject({ code: '22P02' });
      await expect(
        transaction(() => runner.query('SELECT name FROM things WHERE id = $1::int', ['still not a number']), 'rollback'),
      ).rejects.toMatchObject({ code: '22P02' });
      expect(await notes('before the failure')).toBe(0);
      expect(await transaction(() => runner.query(ADD, ['after']))).toBe(2);
      expect(await notes('after')).toBe(1);
    });

    it('when the first statement has no parameters, then BEGIN goes first on its own and the statement is inside the transaction', async () => {
      const trips = await transaction(() => runner.query("INSERT INTO notes (body) VALUES ('plain')"), 'rollback');
      expect(trips).toBe(3);
      expect(await notes('plain')).toBe(0);
    });
  });
  describe('writes held for the next statement or the COMMIT', () => {
    const ADD = 'INSERT INTO notes (body) VALUES ($1)';
    const TAKE = 'INSERT INTO keys (key) VALUES ($1)';
    const COUNT = 'SELECT count(*)::int AS n FROM notes WHERE body = $1';
    let dataSource: DataSource;
    let runner: QueryRunner;
    let client: PreparingClient;
    let roundTrips = 0;

    beforeAll(async () => {
      dataSource = await dataSourceWith();
      runner = dataSource.createQueryRunner();
      client = (await runner.connect()) as PreparingClient;
      (client as unknown as { connection: { on(event: string, listener: () => void): void } }).connection.on(
        'readyForQuery',
        () => (roundTrips += 1),
      );
      // Parsed once on this connection, outside any transaction (only parsed texts are held); the key is taken from here on.
      for (const text of [ADD, TAKE, COUNT]) await runner.query(text, ['warm-up']);
    });

    afterAll(() => runner?.release());

    const notes = async (body: string) => (await runner.query(COUNT, [body]))[0].n as number;
    const hold = (text: string, value: string) => expect(client.holdWrite(text, [value])).toBe(true);

    it('when writes are held until the commit, then they travel with it: the whole transaction is one round trip and they commit', async () => {
      roundTrips = 0;
      await runner.startTransaction();
      hold(ADD, 'held 1');
      hold(ADD, 'held 2');
      await runner.commitTransaction();
      expect(roundTrips).toBe(1);
      expect([await notes('held 1'), await notes('held 2')]).toEqual([1, 1]);
    });

    it("when a held write fails, then the COMMIT does not run: it fails with the write's error, nothing of the transaction commits, and the connection goes on", async () => {
      await runner.startTransaction();
      await runner.query(ADD, ['before the taken key']);
      hold(TAKE, 'warm-up');
      await expect(runner.commitTransaction()).rejects.toMatchObject({ driverError: { code: '23505' } });
      await runner.rollbackTransaction();
      expect(await notes('before the taken key')).toBe(0);
      await runner.startTransaction();
      hold(ADD, 'after the failure');
      await runner.commitTransaction();
      expect(await notes('after the failure')).toBe(1);
    });

    it('when a statement follows a held write, then the write runs first, in the same round trip, and the statement sees it', async () => {
      await runner.startTransaction();
      roundTrips = 0;
      hold(ADD, 'read back');
      expect((await runner.query(COUNT, ['read back']))[0].n).toBe(1);
      expect(roundTrips).toBe(1);
      await runner.rollbackTransaction();
      expect(await notes('read back')).toBe(0);
    });

    it('when a held write fails, then the statement it travelled with fails with its error and does not run', async () => {
      await runner.startTransaction();
      hold(TAKE, 'warm-up');
      await expect(runner.query(ADD, ['after the taken key'])).rejects.toMatchObject({ driverError: { code: '23505' } });
      await runner.rollbackTransaction();
      expect(await notes('after the taken key')).toBe(0);
    });

    it('when a statement without parameters follows held writes, then the writes are sent first, on their own, in order', async () => {
      await runner.startTransaction();
      roundTrips = 0;
      hold(ADD, 'ordered');
      hold(ADD, 'ordered');
      const [{ n }] = await runner.query("SELECT count(*)::int AS n FROM notes WHERE body = 'ordered'");
      expect({ n, roundTrips }).toEqual({ n: 2, roundTrips: 2 });
      await runner.commitTransaction();
      expect(await notes('ordered')).toBe(2);
    });

    it('when the transaction rolls back, then held writes are never sent, and a transaction that sent nothing costs no round trip', async () => {
      roundTrips = 0;
      await runner.startTransaction();
      hold(ADD, 'dropped');
      await runner.rollbackTransaction();
      expect(roundTrips).toBe(0);
      expect(await notes('dropped')).toBe(0);
    });

    it('when a text is not parsed on the connection yet, or no transaction is open, then nothing is held', async () => {
      await runner.startTransaction();
      expect(client.holdWrite('INSERT INTO notes (body) VALUES ($1::text)', ['new text'])).toBe(false);
      await runner.commitTransaction();
      expect(client.holdWrite(ADD, ['outside'])).toBe(false);
    });
  });
});
