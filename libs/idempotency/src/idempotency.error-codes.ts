/** Codes of the `Idempotency-Key` errors, stable `DOMAIN.REASON` strings a client branches on. */
export const IdempotencyErrorCodes = {
  /** The endpoint requires the header and the request has none. */
  KEY_REQUIRED: 'IDEMPOTENCY.KEY_REQUIRED',
  /** The header is not 8 to 200 characters of the safe alphabet. */
  KEY_MALFORMED: 'IDEMPOTENCY.KEY_MALFORMED',
  /** The key was already used with another request body (422). */
  KEY_REUSED: 'IDEMPOTENCY.KEY_REUSED',
  /** The caller stored `IDEMPOTENCY_KEYS_PER_CALLER_MAX` new keys in the window (429); retry after `Retry-After` seconds. */
  QUOTA_EXCEEDED: 'IDEMPOTENCY.QUOTA_EXCEEDED',
} as const;
