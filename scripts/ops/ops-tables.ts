import type pg from 'pg';

/** A pending outbox row as `outbox pending` shows it. */
export interface PendingOutboxRow {
  id: string;
  message_type: string;
  aggregate_id: string;
  topic: string;
  attempts: number;
  age_seconds: number;
  next_attempt_at: Date;
  last_error: string | null;
}

/** Unpublished outbox rows, oldest first: what the relay has not managed to publish, and why. */
export async function pendingOutboxRows(client: pg.Client, limit: number): Promise<PendingOutboxRow[]> {
  const { rows } = await client.query<PendingOutboxRow>(
    `SELECT id, message_type, aggregate_id, topic, attempts, next_attempt_at, last_error,
            EXTRACT(EPOCH FROM now() - created_at)::float AS age_seconds
       FROM outbox_messages WHERE published_at IS NULL
      ORDER BY created_at, id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** A parked loyalty command as `loyalty parked` shows it. */
export interface ParkedLoyaltyCommand {
  id: string;
  customer_id: string;
  order_id: string;
  points: number;
  attempts: number;
  last_error: string | null;
  created_at: Date;
}

/** Commands loyalty refused with a 4xx; nobody retries them until a person does. */
export async function parkedLoyaltyCommands(client: pg.Client): Promise<ParkedLoyaltyCommand[]> {
  const { rows } = await client.query<ParkedLoyaltyCommand>(
    `SELECT id, customer_id, order_id, points, attempts, last_error, created_at
       FROM loyalty_commands WHERE status = 'PARKED' ORDER BY created_at, id`,
  );
  return rows;
}

/**
 * Puts parked commands back in the dispatcher's queue, due now. Attempts and last_error are kept
 * as history. The dispatcher sends them with the same Idempotency-Key (the command id), so a
 * command loyalty had in fact accepted is not credited twice. Returns the ids it moved.
 */
export async function retryParkedLoyaltyCommands(client: pg.Client, ids: string[] | 'all'): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `UPDATE loyalty_commands SET status = 'PENDING', next_attempt_at = now()
      WHERE status = 'PARKED' AND ($1::text[] IS NULL OR id = ANY($1::text[]))
      RETURNING id`,
    [ids === 'all' ? null : ids],
  );
  return rows.map((row) => row.id).sort();
}
