import { describe, expect, it } from '@jest/globals';
import { timeOrderedUuid } from './time-ordered-uuid.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a UUID version 7 with the RFC variant, in lower case', () => {
    for (let n = 0; n < 1000; n += 1) expect(timeOrderedUuid()).toMatch(UUID_V7);
  });

  it('carries the millisecond it was minted in, in its first 48 bits', () => {
    const at = Date.UTC(2026, 11, 7, 6, 45, 1, 234);
    const id = timeOrderedUuid(at);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by the time it was minted: a later millisecond always sorts after, as text and as bytes', () => {
    const ids = Array.from({ length: 500 }, (_, n) => timeOrderedUuid(1_800_000_000_000 + n));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs in its random part, even within one millisecond and across refills of the random pool', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedUuid(1_800_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    // The last 62 of the 74 random bits alone already tell every id of one millisecond apart.
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });
});
