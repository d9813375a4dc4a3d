import { checkEnvelope, type InvalidReason, type MessageDeclaration, type MessageVerification, payloadHash } from '@libs/envelope';
import type { InboxEnvelope, RawInboxMessage } from './inbox.envelope.js';

export type InboxEnvelopeCheck = { valid: true; envelope: InboxEnvelope } | { valid: false; reason: InvalidReason; error: string };

/**
 * The envelope check of `@libs/envelope` against the declarations the handler `consumer` accepts,
 * plus where the message came from and its payload hash: what the inbox claims and a handler reads.
 * With `signing` keys, the envelope's signature is verified too, against its type's declared producer. An invalid message must be
 * dead-lettered without claiming its id: a forged copy must never suppress the real one.
 */
export function validateEnvelope(
  raw: RawInboxMessage,
  accepts: readonly MessageDeclaration[],
  consumer: string,
  signing?: MessageVerification,
): InboxEnvelopeCheck {
  const check = checkEnvelope(raw, accepts, consumer, signing);
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
