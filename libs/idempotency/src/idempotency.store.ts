import { Inject, Injectable } from '@nestjs/common';
import { isConnectionUnavailable, TransactionContext } from '@libs/database';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

export type IdempotentOutcome<T> =
  | { kind: 'executed'; status: number; body: T }
  | { kind: 'replayed'; status: number; body: T }
  | { kind: 'conflict' }
  /** A new key over the caller's quota: nothing ran, nothing was stored. */
  | { kind: 'quota-exceeded'; retryAfterSeconds: number };

interface StoredResponse {
  request_fingerprint: string;
  response_status: number;
  response_body: unknown;
}

/** What {@link IdempotencyStore} reads before a request: the stored answer, else the quota. */
interface KeyLookup {
  request_fingerprint: string | null;
  response_status: number | null;
  response_body: unknown;
  /** Set when the key is new and the caller is at its quota: when its window frees a place. */
  retry_after_s: number | null;
}

/** The key's row: a second insert of one principal's key fails on it (unique violation). */
const KEY_CONSTRAINT = 'idempotency_keys_pkey';

/** Stores a new key with its answer; fails, and takes the effect with it, when the key is taken. */
const STORE_KEY = `INSERT INTO idempotency_keys (principal, key, request_fingerprint, response_status, response_body)
  VALUES ($1, $2, $3, $4, $5::json)`;

/** Whether `error` is the key's insert finding the key stored by another request (as pg or as TypeORM wraps it). */
function isKeyTaken(error: unknown): boolean {
  const cause = (error as { driverError?: unknown } | null)?.driverError ?? error;
  const { code, constraint } = (cause ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === KEY_CONSTRAINT;
}

/**
 * The caller's stored answer for the key, or, for a new key only, the seconds until the caller may
 * store one: its `$4`-th newest key of the sliding window, if it has one, leaves the window then.
 * One statement, read from the primary key and the (principal, created_at) index; the count stops
 * at `$4` entries. The database's clock, not the replica's, so every replica counts alike.
 */
const LOOKUP = `SELECT k.*, q.retry_after_s FROM (SELECT 1) AS one
  LEFT JOIN idempotency_keys k ON k.principal = $1 AND k.key = $2
  LEFT JOIN LATERAL (
    SELECT greatest(1, ceil(extract(epoch FROM w.created_at + make_interval(secs => $3::float / 1000) - now())))::int AS retry_after_s
    FROM idempotency_keys w
    -- k.key IS NULL: a stored key (a replay) is never counted; Postgres skips the scan then.
    WHERE k.key IS NULL AND w.principal = $1 AND w.created_at > now() - make_interval(secs => $3::float / 1000)
    ORDER BY w.created_at DESC OFFSET $4::int - 1 LIMIT 1
  ) q ON true`;

/**
 * Runs a request's effect at most once per key, and stores a caller's new keys up to a quota.
 *
 * First one read, before any transaction ({@link LOOKUP}): a stored key is replayed (or refused as a
 * conflict when the body differs) without running the effect; a new key over the caller's quota
 * (`IDEMPOTENCY_KEYS_PER_CALLER_MAX` per `IDEMPOTENCY_KEYS_WINDOW_MS`) is refused before any work,
 * so a caller cannot grow the table without bound (a review stored 10,000 keys of one caller in 87 s). A
 * replay is never refused: it stores nothing.
 *
 * Then, for a new key, in ONE transaction: run the effect, then store the key with its response
 * (a plain `INSERT`, sent with the COMMIT in one round trip: `TransactionContext.deferWrite`); key
 * and effect commit together. A concurrent request with the same key (both read before either
 * committed) blocks on the primary key until the first transaction ends, then fails on it: its
 * COMMIT does not run, its effect is rolled back and the first one's response replayed. The
 * database serialises them, with no lock of ours. An effect that throws rolls back
 * and stores no key, so a failed request can be retried with its key; it is answered with the
 * stored response instead when its key was stored meanwhile (its effect may fail only because the
 * first one's already happened).
 *
 * Why the key is stored after the effect, not claimed before it: a claim is a second write (and an
 * update of the same row) on every idempotent request; the read is an index lookup, and only a retry
 * racing its first request pays for an effect that is rolled back. Keys are scoped by `principal`
 * (the caller's token subject): two callers never share one.
 *
 * Why the quota is counted in the keys table: the apps run several replicas, and a counter in one
 * process's memory would grant the whole quota on each. Why without a lock: a per-caller lock would
 * serialise all of a caller's requests (inventory's dispatcher sends several at once); requests of
 * one caller in flight at the same moment do not see each other's uncommitted keys, so the quota may
 * be passed by as many requests as the caller has in flight.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    @Inject(TransactionContext) private readonly tx: TransactionContext,
    @Inject(IDEMPOTENCY_CONFIG) private readonly config: IdempotencyConfig,
  ) {}

  async execute<T>(
    principal: string,
    key: string,
    fingerprint: string,
    status: number,
    effect: () => Promise<T>,
  ): Promise<IdempotentOutcome<T>> {
    // Joined to a caller's transaction, a replay could not roll the effect back: it would commit with the caller's.
    if (this.tx.isActive) throw new Error('IdempotencyStore.execute() opens its own transaction; it must not run inside another');
    const [lookup]: KeyLookup[] = await this.tx.manager.query(LOOKUP, [
      principal,
      key,
      this.config.IDEMPOTENCY_KEYS_WINDOW_MS,
      this.config.IDEMPOTENCY_KEYS_PER_CALLER_MAX,
    ]);
    if (lookup.request_fingerprint !== null) return this.answer(lookup as StoredResponse, fingerprint);
    if (lookup.retry_after_s !== null) return { kind: 'quota-exceeded', retryAfterSeconds: lookup.retry_after_s };
    return this.run(principal, key, fingerprint, status, effect);
  }

  /** The stored answer for a request with `fingerprint`: a replay, or a conflict when the body differs. */
  private answer<T>(stored: StoredResponse, fingerprint: string): IdempotentOutcome<T> {
    if (stored.request_fingerprint !== fingerprint) return { kind: 'conflict' };
    return { kind: 'replayed', status: stored.response_status, body: stored.response_body as T };
  }

  /** Runs the effect of a new key and stores the key with its answer, in one transaction. */
  private async run<T>(
    principal: string,
    key: string,
    fingerprint: string,
    status: number,
    effect: () => Promise<T>,
  ): Promise<IdempotentOutcome<T>> {
    try {
      const body = await this.tx.run(async () => {
        const result = await effect();
        // Sent with the COMMIT, in its round trip: a taken key fails the commit, so the effect never commits without it.
        await this.tx.deferWrite(
          STORE_KEY,
          [principal, key, fingerprint, status, JSON.stringify(result ?? null)],
          'Storing an idempotency key',
        );
        return result;
      });
      return { kind: 'executed', status, body };
    } catch (error) {
      // No connection for the effect means none for the read either: answer now, not after a second wait.
      if (isConnectionUnavailable(error)) throw error;
      const [stored]: StoredResponse[] = await this.tx.manager.query(
        'SELECT request_fingerprint, response_status, response_body FROM idempotency_keys WHERE principal = $1 AND key = $2',
        [principal, key],
      );
      if (!stored) {
        // Stored, then removed by the retention job before this read: the key is free again.
        if (isKeyTaken(error)) return this.run(principal, key, fingerprint, status, effect);
        throw error;
      }
      return this.answer(stored, fingerprint);
    }
  }
}
