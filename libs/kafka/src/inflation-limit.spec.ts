import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError } from '@libs/config';
import { inflationLimit, largestInflationLimit, WORST_JSON_HEAP_BYTES_PER_BYTE } from './inflation-limit.js';

const MiB = 1024 * 1024;
/** v8's heap limit of an app run with `--max-semi-space-size=2 --max-old-space-size=128` (Node 24). */
const APP_HEAP = 134 * MiB;

describe('inflation limit (what one gzip batch may inflate to, against the heap)', () => {
  it('when unset (0), then it is the largest whose parsed batches take at most half the heap', () => {
    const limit = inflationLimit(0, 3, APP_HEAP);
    expect(limit).toBe(largestInflationLimit(3, APP_HEAP));
    expect(limit * WORST_JSON_HEAP_BYTES_PER_BYTE * 3).toBeLessThanOrEqual(APP_HEAP / 2);
    expect(limit).toBeGreaterThan(0.8 * MiB);
    // A 40 MB JSON record, gzipped to about 40 KB, is refused with room to spare.
    expect(limit).toBeLessThan(40 * 1000 * 1000);
  });

  it('when more partitions are handled at once, then each batch gets a smaller share', () => {
    expect(largestInflationLimit(6, APP_HEAP)).toBeLessThan(largestInflationLimit(3, APP_HEAP));
  });

  it('when a configured cap fits, then it is kept', () => {
    expect(inflationLimit(512 * 1024, 3, APP_HEAP)).toBe(512 * 1024);
  });

  it('when a configured cap does not fit the heap, then start-up is refused naming the variable and the limit', () => {
    const refuse = () => inflationLimit(64 * MiB, 3, APP_HEAP);
    expect(refuse).toThrow(ConfigValidationError);
    expect(refuse).toThrow(
      new RegExp(`KAFKA_MAX_INFLATED_BATCH_BYTES=${64 * MiB} does not fit .* at most ${largestInflationLimit(3, APP_HEAP)}`),
    );
  });

  it('when a configured cap is below 1024 bytes (but not 0), then it is refused', () => {
    expect(() => inflationLimit(10, 3, APP_HEAP)).toThrow(/KAFKA_MAX_INFLATED_BATCH_BYTES must be 0 .* or at least 1024/);
  });
});
