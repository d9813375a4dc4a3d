import { createHash } from 'node:crypto';
import { canonicalJson } from '@libs/envelope';

/** SHA-256 of method, path and canonical body: `{a,b}` and `{b,a}` are the same request. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}
