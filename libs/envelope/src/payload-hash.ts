import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/**
 * SHA-256 of the payload's canonical JSON: equal for two encodings of the same value. The inbox
 * stores it with each claimed message id, so the same id with another payload shows as a producer bug.
 */
export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('hex');
}
