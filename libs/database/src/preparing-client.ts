import { createRequire } from 'node:module';
import pg from 'pg';
import { CountedClient } from './postgres-traffic.counter.js';

/** How pg's own queries serialise a bound value (`pg/lib/utils.js`, not in @types/pg): held writes bind alike. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };

/**
 * How many distinct statement texts a process prepares at most. The hot paths send a few dozen
 * fixed texts; a text built per call (an `IN ($1, ..., $n)` of varying length) could otherwise grow
 * every connection's set of prepared statements without end. Texts beyond the bound run unnamed.
 */
const MAX_PREPARED_TEXTS = 500;

/** What TypeORM sends to open and to end a transaction (`PostgresQueryRunner`). */
const START_TRANSACTION = 'START TRANSACTION';
const COMMIT = 'COMMIT';
const ROLLBACK = 'ROLLBACK';

/** Statement text -> its name, shared by every connection of the process (the same text, the same name). */
const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED_TEXTS) {
    name = `s${names.size}`;
    names.set(text, name);
  }
  return name;
}

type Callback = (error: Error | null, result?: pg.QueryResult) => void;
type AnyQuery = (...args: unknown[]) => Promise<pg.QueryResult>;

/** The parts of pg's connection and query that pg does not type: the wire messages. */
interface Wire {
  parse(message: { text: string }): void;
  bind(message: { statement?: string; values?: unknown[]; valueMapper?: (value: unknown) => unknown }): void;
  execute(message: object): void;
  parsedStatements: Record<string, string>;
}
interface QueryInternals {
  prepare(connection: Wire): void;
  handleCommandComplete(message: unknown, connection: Wire): void;
  handleDataRow(message: unknown): void;
}
const Query = pg.Query as unknown as new (
  config: pg.QueryConfig & { queryMode?: 'extended' },
  values: undefined,
  callback: Callback,
) => QueryInternals & pg.Submittable;

/** What goes ahead of a statement in its message batch: the held BEGIN, or a held write (already parsed). */
type Ahead = { begin: true } | { name: string; values: unknown[] };

/**
 * A statement preceded, in the same message batch (one Sync, one round trip), by what was held
 * back for it: the transaction's BEGIN and the writes whose results nobody waits for. Their
 * completions (and any rows) are not this query's result; the statement's is. The first error
 * anywhere fails the query, and Postgres skips the rest of the batch: a failed write never lets
 * a later statement, nor the COMMIT, run. Only built for a statement already parsed on its
 * connection (or one without a name, such as COMMIT): no Parse of its own is in flight, so the
 * ParseComplete of BEGIN that pg's client books against this query's name is of no consequence.
 */
class HeldFirstQuery extends Query {
  private aheadLeft: number;

  constructor(
    config: pg.QueryConfig & { queryMode?: 'extended' },
    private readonly ahead: readonly Ahead[],
    callback: Callback,
  ) {
    super(config, undefined, callback);
    this.aheadLeft = ahead.length;
  }

  override prepare(connection: Wire): void {
    for (const item of this.ahead) {
      if ('begin' in item) {
        connection.parse({ text: 'BEGIN' });
        connection.bind({});
      } else {
        connection.bind({ statement: item.name, values: item.values, valueMapper: prepareValue });
      }
      connection.execute({});
    }
    super.prepare(connection);
  }

  override handleDataRow(message: unknown): void {
    if (this.aheadLeft === 0) super.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: Wire): void {
    if (this.aheadLeft === 0) return super.handleCommandComplete(message, connection);
    this.aheadLeft -= 1;
  }
}

/**
 * A pg client that saves round trips to Postgres, as pg-pool's connection class:
 *
 * - Each parameterised statement goes as a named prepared statement: Postgres parses and analyses a
 *   text once per connection, not on every call, and may keep its plan. On the order loop's
 *   statements that halves the backend's CPU per statement (profiled: about 0.41 against 0.20 ms
 *   for an order's two inserts and their transaction).
 * - `START TRANSACTION` is held back and sent with the transaction's first prepared statement, in
 *   one round trip: every socket write to Postgres costs the sender a system call and a wake-up of
 *   the backend, and each round trip is a wait the transaction holds its locks through
 *   (docs/decisions/0009-fewer-round-trips-per-request.md).
 * - A write whose result the caller does not need ({@link holdWrite}, through
 *   `TransactionContext.deferWrite`: an outbox row, a command, an idempotency key) is held back too,
 *   and sent with the transaction's next statement or with its COMMIT, in the same round trip.
 *
 * What a transaction means does not change: what was held runs first, in order, inside the
 * transaction, and a failure of any of it fails the statement it travelled with (the COMMIT too,
 * which then does not run). A statement that cannot carry them (one without parameters, or one not
 * yet parsed on this connection) sends them first, on their own, and waits for them. TypeORM ends
 * every transaction it starts (commit or rollback) before it releases the connection, so nothing
 * held outlives its transaction; a rollback drops held writes unsent.
 *
 * What it gives up: a pooler in transaction mode that cannot follow prepared statements across
 * server connections (PgBouncer before 1.21) needs `DATABASE_PREPARED_STATEMENTS=false`, which
 * switches this class off (and deferred writes run where they are written). Statements without
 * parameters (BEGIN, COMMIT, DDL) run as they are.
 */
export class PreparingClient extends CountedClient {
  private beginHeld = false;
  private inTransaction = false;
  private held: { name: string; text: string; values: unknown[] }[] = [];

  /**
   * Holds a write of the open transaction, to be sent with its next statement or its COMMIT.
   * False when it cannot be held (no transaction, or a text not yet parsed on this connection):
   * the caller runs it now, which also parses it for the next time.
   */
  holdWrite(text: string, values: unknown[]): boolean {
    if (!this.inTransaction || values.length === 0) return false;
    const name = nameOf(text);
    if (name === undefined || !this.isParsed(name, text)) return false;
    this.held.push({ name, text, values });
    return true;
  }

  // pg's overloads are many; this one override sees every call and forwards the rest unchanged.
  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const send = super.query.bind(this) as AnyQuery;
    const plain = values === undefined && callback === undefined;
    if (text === START_TRANSACTION && plain && !this.beginHeld && !this.inTransaction) {
      this.beginHeld = true;
      this.inTransaction = true;
      return Promise.resolve({ command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] }) as never;
    }
    if ((text === COMMIT || text === ROLLBACK) && plain) {
      this.inTransaction = false;
      if (text === ROLLBACK) this.held = [];
      // Nothing of the transaction was sent: there is nothing to end.
      if (this.beginHeld && this.held.length === 0) {
        this.beginHeld = false;
        return Promise.resolve({ command: text, rowCount: null, oid: 0, rows: [], fields: [] }) as never;
      }
      if (this.held.length > 0) return this.withHeld({ text, queryMode: 'extended' }) as never;
    }
    let forwarded: unknown[] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0) {
      const name = nameOf(text);
      if (name !== undefined) {
        if (this.holding() && this.isParsed(name, text) && callback === undefined) return this.withHeld({ name, text, values }) as never;
        forwarded = [{ name, text, values }, callback];
      }
    }
    if (!this.holding()) return send(...forwarded) as never;
    // What was held first, on its own: were it to fail, nothing may run after it.
    const sent = this.sendHeld();
    if (typeof forwarded[forwarded.length - 1] !== 'function') return sent.then(() => send(...forwarded)) as never;
    const done = forwarded.pop() as Callback;
    void sent.then(
      () => send(...forwarded).then((result) => done(null, result), done),
      (error: Error) => done(error),
    );
    return undefined as never;
  }

  private holding(): boolean {
    return this.beginHeld || this.held.length > 0;
  }

  private isParsed(name: string, text: string): boolean {
    return (this as unknown as { connection: Wire }).connection.parsedStatements[name] === text;
  }

  /** What was held, on its own: BEGIN alone, or the held writes (the last one carrying the rest). */
  private sendHeld(): Promise<unknown> {
    const last = this.held.pop();
    if (last !== undefined) return this.withHeld(last);
    this.beginHeld = false;
    return (super.query.bind(this) as AnyQuery)(START_TRANSACTION);
  }

  /** `config` with everything held ahead of it, in one round trip. */
  private withHeld(config: pg.QueryConfig & { queryMode?: 'extended' }): Promise<pg.QueryResult> {
    const ahead: Ahead[] = [...(this.beginHeld ? [{ begin: true as const }] : []), ...this.held];
    this.beginHeld = false;
    this.held = [];
    const submit = super.query.bind(this) as (query: pg.Submittable) => unknown;
    return new Promise<pg.QueryResult>((resolve, reject) => {
      submit(new HeldFirstQuery(config, ahead, (error, result) => (error ? reject(error) : resolve(result!))));
    });
  }
}
