/** Where a page of accruals ends: the last row's exact `created_at` (as Postgres prints it) and id. */
export interface AccrualPosition {
  createdAt: string;
  id: string;
}

// Postgres' text of a timestamptz: microseconds survive the round trip, which a JS Date (ms) loses.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-](\d{2})(?::(\d{2})){0,2}$/;

/**
 * Whether `text` is a timestamp Postgres prints and takes back: the shape alone let `2024-02-30`
 * through to the query, where Postgres refused it and the client got a 500 instead of a 400.
 */
function isPossibleTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second, , offsetHours] = match.slice(1).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 15
  );
}
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
    if (typeof createdAt !== 'string' || typeof id !== 'string' || !isPossibleTimestamp(createdAt) || !UUID.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}
