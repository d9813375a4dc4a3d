import { checkEnvelope, type InvalidReason, type MessageDeclaration, payloadHash } from '@app/envelope';
import type { InboxEnvelope, RawInboxMessage } from './inbox-envelope.js';

export type InboxEnvelopeCheck = { valid: true; envelope: InboxEnvelope } | { valid: false; reason: InvalidReason; error: string };

/**
 * The envelope check of `@app/envelope` against the declarations the handler `consumer` accepts,
 * plus where the message came from and its payload hash: what the inbox claims and a handler reads.
 */
export function validateEnvelope(raw: RawInboxMessage, accepts: readonly MessageDeclaration[], consumer: string): InboxEnvelopeCheck {
  const check = checkEnvelope(raw, accepts, consumer);
  if (!check.valid) return check;
  const { messageId, messageType, schemaVersion, payload, headers } = check.message;
  return {
    valid: true,
    envelope: {
      messageId,
      messageType,
      schemaVersion,
      payload,
      headers,
      topic: raw.topic,
      partition: raw.partition,
      offset: raw.offset,
      key: raw.key,
      payloadHash: payloadHash(payload),
    },
  };
}
