import { aggregateIdentityProblem } from './aggregate-identity.js';
import { Headers } from './headers.js';
import { headerText } from './header-text.js';
import type { MessageDeclaration } from './message-declaration.js';
import { signatureProblem } from './message-signature.js';
import type { MessageVerification } from './message-signing.config.js';
import { schemaProblems } from './standard-schema.js';

/** Why a message can never be handled; becomes the `dlq-reason` header. Stable codes. */
export type InvalidReason =
  | 'NOT_JSON'
  | 'MISSING_MESSAGE_ID'
  | 'UNKNOWN_TYPE'
  | 'UNSUPPORTED_SCHEMA_VERSION'
  | 'SCHEMA_VIOLATION'
  /** Key, `aggregate-id` header and the payload's aggregate id disagree. */
  | 'AGGREGATE_MISMATCH'
  /**
   * Verification is configured and the record is unsigned, signed with an unknown key, with a key
   * of another service than its type's declared producer, or forged.
   */
  | 'SIGNATURE_INVALID'
  /** A placeholder for a compressed batch the consumer refused to inflate (over its byte limit). */
  | 'INFLATION_LIMIT';

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
 * With `signing` keys configured, the signature over the envelope (topic, key, envelope headers,
 * payload) is verified before the type and schema are read, and must be made with a key of the
 * declared producer of the `message-type` it names (the type header is signed, so it cannot be
 * swapped for one of the signer's own types). Last, the record key, the
 * `aggregate-id` header and the payload's aggregate id must agree.
 * Anything that fails can never succeed on retry: the caller dead-letters it with `reason` and
 * `error` in the headers, and must never claim its message id (a forged copy would then suppress
 * the real message).
 *
 * @param message the value (parsed JSON, or a string or Buffer still to parse), the headers as the transport decoded them, the record key and its topic
 * @param signing keys to verify with; default none: signatures are not checked
 */
export function checkEnvelope(
  message: { value: unknown; headers?: Record<string, unknown> | null; key?: string | null; topic?: string },
  accepts: readonly MessageDeclaration[],
  acceptor: string,
  signing?: Pick<MessageVerification, 'keys' | 'required'>,
): EnvelopeCheck {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const text = headerText(value);
    if (text !== undefined) headers[name] = text;
  }
  if (headers[Headers.inflationRefused] !== undefined) {
    return { valid: false, reason: 'INFLATION_LIMIT', error: `compressed batch not inflated: ${headers[Headers.inflationRefused]}` };
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
  if (signing && signing.keys.size > 0) {
    const unsigned = headers[Headers.signature] === undefined && headers[Headers.signatureKeyId] === undefined;
    const parts = { topic: message.topic ?? '', key: message.key ?? null, headers, payload };
    const problem = unsigned && !signing.required ? undefined : signatureProblem(parts, signing.keys, declaration?.producer);
    if (problem) return { valid: false, reason: 'SIGNATURE_INVALID', error: problem };
  }
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
  const mismatch = aggregateIdentityProblem(message.key, headers, payload, declaration);
  if (mismatch) return { valid: false, reason: 'AGGREGATE_MISMATCH', error: mismatch };
  return { valid: true, message: { messageId, messageType, schemaVersion, payload, headers, declaration } };
}
