import { createHash } from 'node:crypto';
import { canonicalJson, Headers, MessageCatalog } from '@app/contracts';
import { headerText } from './header-text.js';
import type { InboxEnvelope, RawInboxMessage } from './inbox-envelope.js';

/** Why a message can never be handled; becomes the `dlq-reason` header. Stable codes. */
export type InvalidReason = 'NOT_JSON' | 'MISSING_MESSAGE_ID' | 'UNKNOWN_TYPE' | 'UNSUPPORTED_SCHEMA_VERSION' | 'SCHEMA_VIOLATION';

export type EnvelopeCheck = { valid: true; envelope: InboxEnvelope } | { valid: false; reason: InvalidReason; error: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('hex');
}

/**
 * Checks a message against `libs/contracts` before any handler sees it: message id, type known on
 * this topic, schema version, payload shape. Anything that fails can never succeed on retry.
 */
export function validateEnvelope(raw: RawInboxMessage): EnvelopeCheck {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw.headers ?? {})) {
    const text = headerText(value);
    if (text !== undefined) headers[name] = text;
  }
  let payload = raw.value;
  if (typeof payload === 'string' || Buffer.isBuffer(payload) || payload === null) {
    try {
      payload = JSON.parse(String(payload));
    } catch {
      return { valid: false, reason: 'NOT_JSON', error: 'value is not JSON' };
    }
  }
  const messageId = headers[Headers.messageId];
  if (!messageId || !UUID.test(messageId)) {
    return { valid: false, reason: 'MISSING_MESSAGE_ID', error: `header ${Headers.messageId} is missing or not a UUID` };
  }
  const messageType = headers[Headers.messageType];
  const definition = messageType ? MessageCatalog[raw.topic]?.[messageType] : undefined;
  if (!definition) {
    return { valid: false, reason: 'UNKNOWN_TYPE', error: `message type "${messageType ?? ''}" is not known on ${raw.topic}` };
  }
  const schemaVersion = Number(headers[Headers.schemaVersion]);
  if (schemaVersion !== definition.schemaVersion) {
    return {
      valid: false,
      reason: 'UNSUPPORTED_SCHEMA_VERSION',
      error: `${messageType} schema version "${headers[Headers.schemaVersion] ?? ''}" is not ${definition.schemaVersion}`,
    };
  }
  const problems = definition.validate(payload, 'payload');
  if (problems.length > 0) return { valid: false, reason: 'SCHEMA_VIOLATION', error: problems.join('; ') };
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
