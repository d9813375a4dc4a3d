import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel.js';
import { PreparingClient } from './preparing-client.js';

/** Thrown when code that must run inside a transaction (an outbox write) runs outside one. */
export class NoActiveTransactionError extends Error {
  constructor(what: string) {
    super(`${what} must run inside TransactionContext.run(): no transaction is active`);
    this.name = 'NoActiveTransactionError';
  }
}

/**
 * The ambient transaction of the current async call chain.
 *
 * Why AsyncLocalStorage instead of passing an EntityManager around: the order, its items and its
 * outbox row are written by different classes (use case, repository, OutboxWriter). Each asks this
 * context for "the" manager, so they cannot accidentally write on different connections, and a
 * writer that demands a transaction can detect its absence and fail loudly.
 */
/** The transaction of the current call chain: its manager, and what runs once it has committed. */
interface ActiveTransaction {
  readonly manager: EntityManager;
  readonly afterCommit: Set<() => void>;
}

export class TransactionContext {
  private readonly storage = new AsyncLocalStorage<ActiveTransaction>();

  constructor(readonly dataSource: DataSource) {}

  /**
   * Runs `work` in a transaction and commits when it resolves, rolls back when it throws. Nested
   * calls join the outer transaction: the outermost caller decides the boundary.
   *
   * Without `isolation` the transaction runs at READ COMMITTED, which every connection of
   * {@link createDataSource} is pinned to at start-up. Naming a level costs a statement of its own
   * (TypeORM sends `SET TRANSACTION ISOLATION LEVEL` after `START TRANSACTION`), a round trip per
   * transaction on every hot path, so only a level other than the default should be named.
   */
  async run<T>(work: (manager: EntityManager) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const active = this.storage.getStore();
    if (active) return work(active.manager);
    const afterCommit = new Set<() => void>();
    const inContext = (manager: EntityManager) => this.storage.run({ manager, afterCommit }, () => work(manager));
    const result = await (isolation === undefined
      ? this.dataSource.transaction(inContext)
      : this.dataSource.transaction(isolation, inContext));
    for (const callback of afterCommit) callback();
    return result;
  }

  /**
   * Runs a write of the active transaction whose result nobody needs (an outbox row, a command, an
   * idempotency key) no later than the commit: held back and sent with the transaction's next
   * statement or with its COMMIT, in the same round trip ({@link PreparingClient}). Its failure
   * (a unique key taken, a check violated) fails that statement or the commit, so the transaction
   * rolls back as if it had failed where it was written; nothing after it may depend on its having
   * run, and a caller that must react to its failure catches it around `run()`. Without prepared
   * statements (`DATABASE_PREPARED_STATEMENTS=false`), or for a text not yet parsed on this
   * connection, it runs here and now.
   */
  async deferWrite(text: string, values: unknown[], what = 'A deferred write'): Promise<void> {
    const manager = this.requireManager(what);
    const runner = manager.queryRunner;
    const client: unknown = (runner as { databaseConnection?: unknown } | undefined)?.databaseConnection;
    if (client instanceof PreparingClient && client.holdWrite(text, values)) {
      // Logged where it was written, as TypeORM logs what it sends: a query log reads as the code does.
      manager.connection.logger.logQuery(text, values, runner);
      return;
    }
    await manager.query(text, values);
  }

  get isActive(): boolean {
    return this.storage.getStore() !== undefined;
  }

  /** The active transaction's manager; throws {@link NoActiveTransactionError} when there is none. */
  requireManager(what = 'This operation'): EntityManager {
    return this.requireActive(what).manager;
  }

  /**
   * Calls `callback` once the active (outermost) transaction has committed, never when it rolls
   * back; the same callback registered twice runs once. For hints that must not be seen before
   * the rows they announce are (waking the dispatcher of a command just written): a hint sent
   * from inside the transaction could be acted on, and find nothing, before the commit. Keep it
   * quick and never throwing: it runs on the committing caller's path.
   */
  afterCommit(callback: () => void, what = 'An after-commit callback'): void {
    this.requireActive(what).afterCommit.add(callback);
  }

  /** The active transaction's manager, or the pool's manager for stand-alone reads. */
  get manager(): EntityManager {
    return this.storage.getStore()?.manager ?? this.dataSource.manager;
  }

  private requireActive(what: string): ActiveTransaction {
    const active = this.storage.getStore();
    if (!active) throw new NoActiveTransactionError(what);
    return active;
  }

  /** A repository bound to the active transaction when there is one. */
  repository<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.manager.getRepository(entity);
  }
}
