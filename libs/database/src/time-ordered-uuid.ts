import { randomFillSync } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. The ids a row is
 * keyed by come from here, not from `randomUUID()`, because of the b-tree they go into. A random key
 * lands on any leaf of the index, so every insert dirties a page somewhere in it, and after each
 * checkpoint the first change to each page writes the whole 8 kB page to the WAL: the more the index
 * holds, the more pages one checkpoint interval touches, and the cost of an insert grows with the
 * table. A time-ordered key lands on the rightmost leaf, which stays in memory and is logged whole
 * once per checkpoint. Ids stay as unguessable as the 74 bits make them; the time they carry is the
 * row's creation time, which the rows already state.
 */
export function timeOrderedUuid(nowMs: number = Date.now()): string {
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  takeRandom(bytes, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// One call to the system's generator fills the random part of many ids, as randomUUID() does with
// its own cache: an id is minted per order and per message on the hottest path.
const pool = Buffer.alloc(10 * 128);
let offset = pool.length;

/** Copies 10 random bytes into `target` at `at`. */
function takeRandom(target: Buffer, at: number): void {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  pool.copy(target, at, offset, offset + 10);
  offset += 10;
}
