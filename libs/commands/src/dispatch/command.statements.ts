import type { CommandsOptions } from '../command.options.js';

/**
 * Claims up to $1 due commands for claim $2 until now + $3 ms, in one statement.
 *
 * Why a claim: every replica of the app runs a dispatcher, and without one each replica sent every
 * due command, once per replica. `FOR UPDATE SKIP LOCKED` lets concurrent claims pass each other
 * instead of queueing: a row another replica is claiming right now is skipped, and one it has
 * claimed is no longer due (its `next_attempt_at` moved past now, re-checked under the row lock).
 * The lease is `next_attempt_at` itself, so a replica that dies holding a claim only delays its
 * commands until the lease ends; no sweeper is needed. Raw SQL: one round trip per batch on the
 * hot path, which the ORM cannot express (UPDATE ... FROM a locked sub-select).
 */
const claimDue = (table: string) => `
  WITH due AS (
    SELECT id FROM ${table}
    WHERE status = 'PENDING' AND next_attempt_at <= now()
    ORDER BY next_attempt_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED),
  claimed AS (
    UPDATE ${table} c
    SET claim_id = $2, next_attempt_at = now() + make_interval(secs => $3::float / 1000)
    FROM due WHERE c.id = due.id
    RETURNING c.id, c.path, c.body, c.attempts, c.traceparent, c.next_attempt_at)
  SELECT id, path, body, attempts, traceparent FROM claimed ORDER BY next_attempt_at`;

/**
 * Every status change is conditional on the status the dispatcher read (`PENDING`): a late answer
 * can never turn `DONE` into `PARKED` or reschedule a finished command. Retrying and parking also
 * require our claim to still be the current one, so a replica whose lease expired cannot undo the
 * work of the replica that holds the command now. `DONE` does not: the partner acknowledged the key,
 * which is true whoever asked.
 *
 * `DONE` takes a set of ids ($1), so that one statement can mark several (the coalesced-marks and
 * batched-calls layers). The rows are locked in id order first, so two replicas marking
 * overlapping sets (after a lease expired) queue instead of deadlocking.
 */
const markDone = (table: string) => `
  WITH target AS (
    SELECT id FROM ${table}
    WHERE id = ANY($1::text[]) AND status = 'PENDING'
    ORDER BY id
    FOR UPDATE)
  UPDATE ${table} c
  SET status = 'DONE', attempts = c.attempts + 1, last_error = NULL, completed_at = now(), claim_id = NULL
  FROM target WHERE c.id = target.id AND c.status = 'PENDING'
  RETURNING c.id`;
const markParked = (table: string) => `
  UPDATE ${table}
  SET status = 'PARKED', attempts = attempts + 1, last_error = $3, claim_id = NULL
  WHERE id = $1 AND status = 'PENDING' AND claim_id = $2
  RETURNING id`;
const scheduleRetry = (table: string) => `
  UPDATE ${table}
  SET attempts = attempts + 1, last_error = $3, claim_id = NULL, next_attempt_at = now() + make_interval(secs => $4::float / 1000)
  WHERE id = $1 AND status = 'PENDING' AND claim_id = $2
  RETURNING id`;

/** The dispatcher's four statements for one table. */
export interface CommandStatements {
  readonly claimDue: string;
  readonly markDone: string;
  readonly markParked: string;
  readonly scheduleRetry: string;
}

export function commandStatements(table: string): CommandStatements {
  return { claimDue: claimDue(table), markDone: markDone(table), markParked: markParked(table), scheduleRetry: scheduleRetry(table) };
}

/** A claimed command, as the claim returns it. */
export interface DueCommand {
  id: string;
  path: string;
  body: unknown;
  attempts: number;
  traceparent: string | null;
}

/**
 * How long a claim lasts: the slowest a claimed batch can take (its calls run in waves of
 * `concurrency`, each bounded by the request timeout), plus one more timeout of margin for the
 * database writes. Derived rather than configured, so it can never be set shorter than the work it
 * protects.
 */
export function claimLeaseMs(options: Pick<CommandsOptions, 'batchSize' | 'concurrency' | 'requestTimeoutMs'>): number {
  const waves = Math.ceil(options.batchSize / options.concurrency);
  return (waves + 1) * options.requestTimeoutMs;
}
