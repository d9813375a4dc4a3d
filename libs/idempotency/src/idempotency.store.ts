import { Inject, Injectable } from '@nestjs/common';
import { TransactionContext } from '@app/database';

export type IdempotentOutcome<T> =
  { kind: 'executed'; status: number; body: T } | { kind: 'replayed'; status: number; body: T } | { kind: 'conflict' };

/**
 * Runs a request's effect at most once per key.
 *
 * In ONE transaction: claim the key with `INSERT ... ON CONFLICT DO NOTHING`, run the effect, store
 * its response. A concurrent request with the same key blocks on the primary key until the first
 * transaction ends, then sees the stored row: the database serialises them, with no lock of ours.
 * An effect that throws rolls the claim back, so a failed request can be retried with its key.
 * Keys are scoped by `principal` (the caller's token subject): two callers never share one.
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
    return this.tx.run(async (manager) => {
      const claimed = await manager.query(
        `INSERT INTO idempotency_keys (principal, key, request_fingerprint, response_status, response_body)
         VALUES ($1, $2, $3, $4, 'null'::json)
         ON CONFLICT (principal, key) DO NOTHING
         RETURNING key`,
        [principal, key, fingerprint, status],
      );
      if (claimed.length === 0) {
        const [stored] = await manager.query(
          'SELECT request_fingerprint, response_status, response_body FROM idempotency_keys WHERE principal = $1 AND key = $2',
          [principal, key],
        );
        if (stored.request_fingerprint !== fingerprint) return { kind: 'conflict' };
        return { kind: 'replayed', status: stored.response_status, body: stored.response_body as T };
      }
      const body = await effect();
      await manager.query('UPDATE idempotency_keys SET response_body = $3 WHERE principal = $1 AND key = $2', [
        principal,
        key,
        JSON.stringify(body ?? null),
      ]);
      return { kind: 'executed', status, body };
    });
  }
}
