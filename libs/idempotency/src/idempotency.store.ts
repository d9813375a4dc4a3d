import { Inject, Injectable } from '@nestjs/common';
import { isConnectionUnavailable, TransactionContext } from '@app/database';

export type IdempotentOutcome<T> =
  { kind: 'executed'; status: number; body: T } | { kind: 'replayed'; status: number; body: T } | { kind: 'conflict' };

interface StoredResponse {
  request_fingerprint: string;
  response_status: number;
  response_body: unknown;
}

/** Rolls back an effect whose key another request stored first; never leaves the store. */
class KeyTaken extends Error {}

/**
 * Runs a request's effect at most once per key.
 *
 * In ONE transaction: run the effect, then store the key with its response by
 * `INSERT ... ON CONFLICT DO NOTHING`; key and effect commit together. A key already stored
 * inserts nothing: the effect is rolled back and the stored response replayed (or refused as a
 * conflict when the body differs). A concurrent request with the same key blocks on the primary key
 * until the first transaction ends, then finds the first one's row: the database serialises them,
 * with no lock of ours. An effect that throws rolls back and stores no key, so a failed request can
 * be retried with its key; it is answered with the stored response instead when its key was stored
 * meanwhile (its effect may fail only because the first one's already happened).
 *
 * Why the key is stored after the effect, not claimed before it: one statement per request instead
 * of a claim and an update of the same row, on every idempotent request; a replay, rare, pays for an
 * effect that is rolled back. Keys are scoped by `principal` (the caller's token subject): two
 * callers never share one.
 */
@Injectable()
export class IdempotencyStore {
  constructor(@Inject(TransactionContext) private readonly tx: TransactionContext) {}

  async execute<T>(
    principal: string,
    key: string,
    fingerprint: string,
    status: number,
    effect: () => Promise<T>,
  ): Promise<IdempotentOutcome<T>> {
    // Joined to a caller's transaction, a replay could not roll the effect back: it would commit with the caller's.
    if (this.tx.isActive) throw new Error('IdempotencyStore.execute() opens its own transaction; it must not run inside another');
    try {
      const body = await this.tx.run(async (manager) => {
        const result = await effect();
        const stored = await manager.query(
          `INSERT INTO idempotency_keys (principal, key, request_fingerprint, response_status, response_body)
           VALUES ($1, $2, $3, $4, $5::json)
           ON CONFLICT (principal, key) DO NOTHING
           RETURNING key`,
          [principal, key, fingerprint, status, JSON.stringify(result ?? null)],
        );
        if (stored.length === 0) throw new KeyTaken();
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
        if (error instanceof KeyTaken) return this.execute(principal, key, fingerprint, status, effect);
        throw error;
      }
      if (stored.request_fingerprint !== fingerprint) return { kind: 'conflict' };
      return { kind: 'replayed', status: stored.response_status, body: stored.response_body as T };
    }
  }
}
