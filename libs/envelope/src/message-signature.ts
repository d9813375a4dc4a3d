import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { Headers } from './headers.js';

/** One HMAC key: its id travels in the `message-signature-key-id` header, so keys can rotate. */
export interface SigningKey {
  readonly id: string;
  readonly secret: Buffer;
}

/** What a signature covers: everything a consumer acts on or routes by. */
export interface SignedParts {
  topic: string;
  key: string | null;
  /** Every header; only {@link SIGNED_HEADERS} are covered. */
  headers: Record<string, string>;
  /** The payload as a value; its canonical JSON is signed, so key order and spacing do not matter. */
  payload: unknown;
}

/**
 * The envelope headers a signature covers. Not `traceparent` (tracing may rewrite it) and not the
 * signature headers themselves. Changing this list invalidates every signature in flight: add a
 * header only together with a new signature version.
 */
export const SIGNED_HEADERS = [
  Headers.messageId,
  Headers.messageType,
  Headers.schemaVersion,
  Headers.aggregateId,
  Headers.occurredAt,
  Headers.correlationId,
  Headers.causationId,
] as const;

/** Prefix of the signature header's value: the scheme, so a future one can be told apart. */
const SCHEME = 'v1=';

function digest(parts: SignedParts, secret: Buffer): Buffer {
  const headers = Object.fromEntries(
    SIGNED_HEADERS.filter((name) => parts.headers[name] !== undefined).map((name) => [name, parts.headers[name]]),
  );
  const text = canonicalJson({ topic: parts.topic, key: parts.key, headers, payload: parts.payload });
  return createHmac('sha256', secret).update(text).digest();
}

/**
 * The two headers that sign `parts` with `key`: HMAC-SHA256 over the canonical JSON of topic, key,
 * the {@link SIGNED_HEADERS} and the payload. The topic is covered so a signed record cannot be
 * replayed onto another topic; the key, so it cannot be moved to another aggregate's partition.
 */
export function signatureHeaders(parts: SignedParts, key: SigningKey): Record<string, string> {
  return { [Headers.signature]: SCHEME + digest(parts, key.secret).toString('base64'), [Headers.signatureKeyId]: key.id };
}

/**
 * Why the signature of `parts` does not hold against `keys`, or undefined when it does: missing,
 * signed with a key id that is not configured, of an unknown scheme, or not matching (compared in
 * constant time).
 */
export function signatureProblem(parts: SignedParts, keys: ReadonlyMap<string, SigningKey>): string | undefined {
  const signature = parts.headers[Headers.signature];
  const keyId = parts.headers[Headers.signatureKeyId];
  if (!signature || !keyId) return `unsigned: header ${Headers.signature} or ${Headers.signatureKeyId} is missing`;
  const key = keys.get(keyId);
  if (!key) return `signed with key id "${keyId.slice(0, 64)}", which is not configured`;
  if (!signature.startsWith(SCHEME)) return `signature scheme is not ${SCHEME.slice(0, -1)}`;
  const given = Buffer.from(signature.slice(SCHEME.length), 'base64');
  const expected = digest(parts, key.secret);
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'signature does not match the envelope';
}
