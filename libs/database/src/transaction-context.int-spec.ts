import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { StatementCounter, testInfrastructure } from '@test/fixtures';
import { createTestDatabase, dropTestDatabase, waitFor } from '@tools/test-support';
import { createDataSource } from './data-source.factory.js';
import { NoActiveTransactionError, TransactionContext } from './transaction-context.js';

const { serverUrl } = testInfrastructure();

describe('TransactionContext (real Postgres)', () => {
  let database: string;
  let dataSource: DataSource;
  let tx: TransactionContext;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'txctx');
    dataSource = await createDataSource({ serverUrl, database, entities: [], migrations: [] }).initialize();
    await dataSource.query('CREATE TABLE a (id int PRIMARY KEY)');
    await dataSource.query('CREATE TABLE b (id int PRIMARY KEY)');
    tx = new TransactionContext(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    if (database) await dropTestDatabase(serverUrl, database);
  });

  /** Two writers that know nothing of each other, as a repository and the OutboxWriter are. */
  const writeA = (id: number) => tx.requireManager('writeA').query('INSERT INTO a (id) VALUES ($1)', [id]);
  const writeB = (id: number) => tx.requireManager('writeB').query('INSERT INTO b (id) VALUES ($1)', [id]);
  const count = async (table: 'a' | 'b', id: number) =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM ${table} WHERE id = $1`, [id]))[0].n);

  it('when both writes succeed, then both are committed together', async () => {
    await tx.run(async () => {
      await writeA(1);
      await writeB(1);
    });
    expect([await count('a', 1), await count('b', 1)]).toEqual([1, 1]);
  });

  it('when the second write fails, then the first is rolled back with it', async () => {
    await dataSource.query('INSERT INTO b (id) VALUES (2)');
    await expect(
      tx.run(async () => {
        await writeA(2);
        await writeB(2); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await count('a', 2)).toBe(0);
  });

  it('when the work throws after both writes, then neither is committed', async () => {
    await expect(
      tx.run(async () => {
        await writeA(3);
        await writeB(3);
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect([await count('a', 3), await count('b', 3)]).toEqual([0, 0]);
  });

  it('when run() is nested, then the inner call joins the outer transaction', async () => {
    await expect(
      tx.run(async (outer) => {
        await tx.run(async (inner) => {
          expect(inner).toBe(outer);
          await writeA(4);
        });
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await count('a', 4)).toBe(0);
  });

  it('when a callback is registered for after the commit, then it runs once the outermost transaction committed, once, and never on rollback', async () => {
    const calls: number[] = [];
    const afterCommit = () => void count('a', 40).then((n) => calls.push(n));
    await tx.run(async () => {
      await writeA(40);
      tx.afterCommit(afterCommit);
      await tx.run(async () => tx.afterCommit(afterCommit)); // a nested caller joins, and the same callback runs once
      expect(calls).toEqual([]);
    });
    await expect(
      tx.run(async () => {
        tx.afterCommit(afterCommit);
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect(() => tx.afterCommit(afterCommit, 'waking the dispatcher')).toThrow(/waking the dispatcher must run inside/);
    // The one call saw its row committed (count 1 from another connection).
    await waitFor(() => calls.length === 1, { timeoutMs: 5000, description: 'the after-commit callback' });
    expect(calls).toEqual([1]);
  });

  it('when no transaction is active, then requireManager throws and names the caller', async () => {
    expect(() => tx.requireManager('OutboxWriter.add')).toThrow(NoActiveTransactionError);
    expect(() => tx.requireManager('OutboxWriter.add')).toThrow(/OutboxWriter.add must run inside/);
    expect(tx.isActive).toBe(false);
  });

  it('when two transactions run concurrently, then each sees only its own manager', async () => {
    const seen: unknown[] = [];
    await Promise.all(
      [5, 6].map((id) =>
        tx.run(async (manager) => {
          await writeA(id);
          seen.push(tx.requireManager() === manager);
        }),
      ),
    );
    expect(seen).toEqual([true, true]);
    expect([await count('a', 5), await count('a', 6)]).toEqual([1, 1]);
  });

  describe('deferWrite', () => {
    const INSERT_A = 'INSERT INTO a (id) VALUES ($1)';
    const deferA = (id: number) => tx.deferWrite(INSERT_A, [id], 'deferA');

    beforeAll(async () => {
      // A deferred write of a text no connection has parsed yet runs at once (and is parsed then):
      // one of every pooled connection's first, so each test below holds its writes.
      await Promise.all(Array.from({ length: 10 }, (_, n) => tx.run(() => deferA(100 + n))));
    });

    it('when the transaction commits, then deferred writes commit with it', async () => {
      await tx.run(async () => {
        await deferA(21);
        await deferA(22);
      });
      expect([await count('a', 21), await count('a', 22)]).toEqual([1, 1]);
    });

    it('when the work throws after a deferred write, then it is not committed', async () => {
      await expect(
        tx.run(async () => {
          await deferA(23);
          throw new Error('business rule failed');
        }),
      ).rejects.toThrow('business rule failed');
      expect(await count('a', 23)).toBe(0);
    });

    it('when a deferred write fails, then run() fails with its error and nothing of the transaction commits', async () => {
      await dataSource.query('INSERT INTO a (id) VALUES (24)');
      await expect(
        tx.run(async () => {
          await writeB(24);
          await deferA(24); // duplicate key, found when the commit carries it
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await count('b', 24)).toBe(0);
    });

    it('when a statement follows a deferred write in the transaction, then it sees the write', async () => {
      const seen = await tx.run(async (manager) => {
        await deferA(25);
        return Number((await manager.query('SELECT count(*) AS n FROM a WHERE id = $1', [25]))[0].n);
      });
      expect(seen).toBe(1);
    });

    it('when no transaction is active, then it throws and names the caller', async () => {
      await expect(deferA(26)).rejects.toThrow(/deferA must run inside/);
    });

    it('when prepared statements are off, then a deferred write runs where it is written, with the same outcome', async () => {
      const plain = await createDataSource({ serverUrl, database, entities: [], migrations: [], preparedStatements: false }).initialize();
      try {
        const plainTx = new TransactionContext(plain);
        await plainTx.run(() => plainTx.deferWrite(INSERT_A, [27]));
        await expect(plainTx.run(() => plainTx.deferWrite(INSERT_A, [27]))).rejects.toThrow(/duplicate key/);
        expect(await count('a', 27)).toBe(1);
      } finally {
        await plain.destroy();
      }
    });
  });

  describe('isolation', () => {
    /** A second data source whose logger keeps every statement sent, BEGIN and COMMIT included. */
    let logged: DataSource;
    let loggedTx: TransactionContext;
    const counter = new StatementCounter();

    beforeAll(async () => {
      // A server whose default is not READ COMMITTED: the pool's own setting must win over it.
      await dataSource.query(`ALTER DATABASE "${database}" SET default_transaction_isolation = 'serializable'`);
      const plain = createDataSource({ serverUrl, database, entities: [], migrations: [] });
      logged = await new DataSource({ ...plain.options, logger: counter }).initialize();
      loggedTx = new TransactionContext(logged);
    });

    afterAll(async () => {
      await logged?.destroy();
      await dataSource.query(`ALTER DATABASE "${database}" RESET default_transaction_isolation`);
    });

    const levelInside = (isolation?: 'SERIALIZABLE') =>
      loggedTx.run(async (manager) => (await manager.query('SHOW transaction_isolation'))[0].transaction_isolation, isolation);

    it('when no level is named, then the transaction is READ COMMITTED and opens with one statement, whatever the server default', async () => {
      counter.texts = [];
      expect(await levelInside()).toBe('read committed');
      expect(counter.texts).toEqual(['START TRANSACTION', 'SHOW transaction_isolation', 'COMMIT']);
    });

    it('when a level is named, then the transaction runs at that level', async () => {
      expect(await levelInside('SERIALIZABLE')).toBe('serializable');
    });
  });
});
