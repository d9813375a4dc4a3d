/** A consumed message that passed validation: what an inbox handler works with. */
export interface InboxEnvelope<P = unknown> {
  messageId: string;
  messageType: string;
  schemaVersion: number;
  payload: P;
  headers: Record<string, string>;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  payloadHash: string;
}

/** The raw message as the transport delivered it, before validation. */
export interface RawInboxMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  /** Already JSON-parsed by Nest when it looked like JSON; a string otherwise. */
  value: unknown;
  headers: Record<string, unknown>;
}

/** A record as Nest decoded it (key, value and headers parsed), as the inbox sees it. */
export function rawInboxMessage(
  topic: string,
  partition: number,
  message: { offset: string; key?: string | Buffer | null; value: unknown; headers?: Record<string, unknown> | null },
): RawInboxMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key === null || message.key === undefined ? null : String(message.key),
    value: message.value,
    headers: message.headers ?? {},
  };
}
