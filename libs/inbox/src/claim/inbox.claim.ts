import type { EntityManager } from 'typeorm';
import type { InboxEnvelope } from '../envelope/inbox.envelope.js';

/**
 * One statement for any number of messages: a row per message id, `ON CONFLICT DO NOTHING`. The
 * primary key decides: an id already committed conflicts at once; an id another open transaction
 * inserted blocks this statement until that one ends, then conflicts (it committed) or inserts (it
 * rolled back). No application-level check could be race-free like this.
 */
const CLAIM = `
  INSERT INTO inbox_messages (consumer, message_id, message_type, topic, partition, "offset", payload_hash)
  SELECT $1, id, message_type, $2, partition, "offset", payload_hash
  FROM unnest($3::uuid[], $4::text[], $5::int[], $6::bigint[], $7::text[]) AS claim(id, message_type, partition, "offset", payload_hash)
  ON CONFLICT (consumer, message_id) DO NOTHING
  RETURNING message_id`;

const STORED_HASHES = 'SELECT message_id, payload_hash FROM inbox_messages WHERE consumer = $1 AND message_id = ANY($2::uuid[])';

/** Postgres returns uuids in lower case; a producer may send them in upper case. The key to compare ids by. */
export function idKey(messageId: string): string {
  return messageId.toLowerCase();
}

/**
 * Claims the ids of `envelopes` (of one topic; of one partition or of several of one fetch) for
 * `consumer`, each row with its own partition and offset; returns the {@link idKey}s this
 * transaction inserted.
 */
export async function claimMessages(manager: EntityManager, consumer: string, envelopes: readonly InboxEnvelope[]): Promise<Set<string>> {
  if (envelopes.length === 0) return new Set();
  const rows: { message_id: string }[] = await manager.query(CLAIM, [
    consumer,
    envelopes[0].topic,
    envelopes.map((envelope) => envelope.messageId),
    envelopes.map((envelope) => envelope.messageType),
    envelopes.map((envelope) => envelope.partition),
    envelopes.map((envelope) => envelope.offset),
    envelopes.map((envelope) => envelope.payloadHash),
  ]);
  return new Set(rows.map((row) => idKey(row.message_id)));
}

/** The stored payload hash of each of `ids` already in `consumer`'s inbox, by {@link idKey}. */
export async function storedHashes(manager: EntityManager, consumer: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows: { message_id: string; payload_hash: string }[] = await manager.query(STORED_HASHES, [consumer, ids]);
  return new Map(rows.map((row) => [idKey(row.message_id), row.payload_hash]));
}
