import { Headers } from './headers.js';
import { headerText } from './header-text.js';
import type { MessageDeclaration } from './message-declaration.js';
import { schemaProblems } from './standard-schema.js';

/** Why a message can never be handled; becomes the `dlq-reason` header. Stable codes. */
export type InvalidReason = 'NOT_JSON' | 'MISSING_MESSAGE_ID' | 'UNKNOWN_TYPE' | 'UNSUPPORTED_SCHEMA_VERSION' | 'SCHEMA_VIOLATION';

/** A message whose envelope and payload are valid for one of the accepted declarations. */
export interface ValidMessage {
  messageId: string;
  messageType: string;
  schemaVersion: number;
  payload: unknown;
  /** Every header, as text. */
  headers: Record<string, string>;
  declaration: MessageDeclaration;
}

export type EnvelopeCheck = { valid: true; message: ValidMessage } | { valid: false; reason: InvalidReason; error: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a consumed message before any handler sees it: a `message-id` that is a UUID, a JSON
 * value, a `message-type` among `accepts` (the declarations of the one consuming it, named
 * `acceptor` in the error), its `schema-version`, and the payload against the declaration's schema.
 * Anything that fails can never succeed on retry: the caller dead-letters it with `reason` and
 * `error` in the headers.
 *
 * @param message the value (parsed JSON, or a string or Buffer still to parse) and the headers as the transport decoded them
 */
export function checkEnvelope(
  message: { value: unknown; headers?: Record<string, unknown> | null },
  accepts: readonly MessageDeclaration[],
  acceptor: string,
): EnvelopeCheck {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const text = headerText(value);
    if (text !== undefined) headers[name] = text;
  }
  let payload = message.value;
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
  const declaration = messageType ? accepts.find((candidate) => candidate.type === messageType) : undefined;
  if (!messageType || !declaration) {
    return {
      valid: false,
      reason: 'UNKNOWN_TYPE',
      error: `message type "${messageType ?? ''}" is not one ${acceptor} accepts (${accepts.map((each) => each.type).join(', ')})`,
    };
  }
  const schemaVersion = Number(headers[Headers.schemaVersion]);
  if (schemaVersion !== declaration.schemaVersion) {
    return {
      valid: false,
      reason: 'UNSUPPORTED_SCHEMA_VERSION',
      error: `${messageType} schema version "${headers[Headers.schemaVersion] ?? ''}" is not ${declaration.schemaVersion}`,
    };
  }
  const problems = schemaProblems(declaration.schema, payload, 'payload');
  if (problems.length > 0) return { valid: false, reason: 'SCHEMA_VIOLATION', error: problems.join('; ') };
  return { valid: true, message: { messageId, messageType, schemaVersion, payload, headers, declaration } };
}
