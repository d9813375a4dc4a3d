import { type KeyObject, sign, verify } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { Headers } from './headers.js';

/**
 * The private Ed25519 key one producing service signs with. Only that service holds it: a consumer
 * holds public keys, so a compromised consumer (or another producer) cannot sign as this one.
 */
export interface SigningKey {
  /** Travels in the `message-signature-key-id` header, so a consumer finds the public key and keys can rotate. */
  readonly id: string;
  readonly privateKey: KeyObject;
}

/** A public key a consumer verifies with, and the producing service it belongs to. */
export interface VerifyKey {
  readonly id: string;
  /** The service that holds the private half: a record signed with it speaks only for that service. */
  readonly producer: string;
  readonly publicKey: KeyObject;
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

/** Prefix of the signature header's value: the scheme (Ed25519), so a future one can be told apart. */
const SCHEME = 'ed25519=';

function signedText(parts: SignedParts): Buffer {
  const headers = Object.fromEntries(
    SIGNED_HEADERS.filter((name) => parts.headers[name] !== undefined).map((name) => [name, parts.headers[name]]),
  );
  return Buffer.from(canonicalJson({ topic: parts.topic, key: parts.key, headers, payload: parts.payload }));
}

/**
 * The two headers that sign `parts` with `key`: Ed25519 over the canonical JSON of topic, key, the
 * {@link SIGNED_HEADERS} and the payload. The topic is covered so a signed record cannot be
 * replayed onto another topic; the key, so it cannot be moved to another aggregate's partition.
 */
export function signatureHeaders(parts: SignedParts, key: SigningKey): Record<string, string> {
  const signature = sign(null, signedText(parts), key.privateKey);
  return { [Headers.signature]: SCHEME + signature.toString('base64'), [Headers.signatureKeyId]: key.id };
}

/**
 * Why the signature of `parts` does not hold against `keys`, or undefined when it does: missing,
 * signed with a key id that is not configured, with a key of another producer than `producer` (the
 * declared producer of the message's type; undefined: any configured producer), of an unknown
 * scheme, or not matching.
 */
export function signatureProblem(parts: SignedParts, keys: ReadonlyMap<string, VerifyKey>, producer?: string): string | undefined {
  const signature = parts.headers[Headers.signature];
  const keyId = parts.headers[Headers.signatureKeyId];
  if (!signature || !keyId) return `unsigned: header ${Headers.signature} or ${Headers.signatureKeyId} is missing`;
  const key = keys.get(keyId);
  const type = parts.headers[Headers.messageType] ?? 'this type';
  if (!key) {
    const id = keyId.slice(0, 64);
    return producer === undefined
      ? `signed with key id "${id}", which is not configured`
      : `signed with key id "${id}", which is not a configured key of ${producer} (${type} is produced by ${producer} only)`;
  }
  if (producer !== undefined && key.producer !== producer) {
    return `signed with key "${key.id}" of ${key.producer}, but ${type} is produced by ${producer} only`;
  }
  if (!signature.startsWith(SCHEME)) return `signature scheme is not ${SCHEME.slice(0, -1)}`;
  const given = Buffer.from(signature.slice(SCHEME.length), 'base64');
  return verify(null, signedText(parts), key.publicKey, given) ? undefined : 'signature does not match the envelope';
}
