import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase } from '@tools/local-stack';
import { createDataSource } from './data-source.factory.js';

/**
 * Issue 17: parameterised statements go to Postgres as named prepared statements, parsed once per
 * connection, unless `DATABASE_PREPARED_STATEMENTS=false` (a pooler that cannot follow them). Read
 * from the server's own `pg_prepared_statements` of the connection that ran them. Real Postgres.
 */
const { serverUrl } = testInfrastructure();
const LOOKUP = 'SELECT name FROM things WHERE id = $1';

describe('data source prepared statements (real Postgres)', () => {
  let database: string;
  const open: DataSource[] = [];

  /** A one-connection pool, so every call below runs on the same server session. */
  const dataSourceWith = async (preparedStatements?: boolean) => {
    const dataSource = await createDataSource({
      serverUrl,
      database,
      entities: [],
      migrations: [],
      poolSize: 1,
      preparedStatements,
    }).initialize();
    open.push(dataSource);
    return dataSource;
  };
  const preparedTexts = async (dataSource: DataSource): Promise<string[]> =>
    (await dataSource.query('SELECT statement FROM pg_prepared_statements WHERE NOT from_sql ORDER BY prepare_time')).map(
      (row: { statement: string }) => row.statement,
    );

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'db_prepared');
    const setup = await dataSourceWith(false);
    await setup.query("CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL); INSERT INTO things VALUES (1, 'one'), (2, 'two')");
  });

  afterAll(async () => {
    await Promise.all(open.map((dataSource) => dataSource.destroy()));
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
});
