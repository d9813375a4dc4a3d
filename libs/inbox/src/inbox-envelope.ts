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
