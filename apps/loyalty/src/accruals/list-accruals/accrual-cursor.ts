/** Where a page of accruals ends: the last row's exact `created_at` (as Postgres prints it) and id. */
export interface AccrualPosition {
  createdAt: string;
  id: string;
}

// Postgres' text of a timestamptz: microseconds survive the round trip, which a JS Date (ms) loses.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The cursor a client passes back for the next page: opaque (base64url of the position), so
 * clients do not build one and the position can change shape without an API version.
 */
export function encodeAccrualCursor(position: AccrualPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** The position of a cursor from {@link encodeAccrualCursor}, or undefined for anything else. */
export function decodeAccrualCursor(cursor: string): AccrualPosition | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [createdAt, id] = decoded as unknown[];
    if (typeof createdAt !== 'string' || typeof id !== 'string' || !TIMESTAMP.test(createdAt) || !UUID.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}
