import { describe, expect, it } from '@jest/globals';
import { isSustained, maxSustained, nextOfferedRate, type RateTrial } from './rate-search.js';

describe('stepped rate search', () => {
  const options = { minPerSec: 25, maxPerSec: 1200, resolutionPerSec: 25 };
  const trial = (offeredPerSec: number, sustained: boolean): RateTrial => ({ offeredPerSec, sustained });

  it('when every rate held, then it doubles up to the maximum', () => {
    expect(nextOfferedRate([trial(150, true)], options)).toBe(300);
    expect(nextOfferedRate([trial(150, true), trial(300, true), trial(600, true)], options)).toBe(1200);
    expect(nextOfferedRate([trial(1200, true)], options)).toBeUndefined();
  });

  it('when no rate held, then it halves, and gives up below the minimum', () => {
    expect(nextOfferedRate([trial(150, false)], options)).toBe(75);
    expect(nextOfferedRate([trial(150, false), trial(75, false), trial(37, false)], options)).toBeUndefined();
  });

  it('when one rate held and a higher one failed, then it bisects until they are within the resolution', () => {
    expect(nextOfferedRate([trial(150, false), trial(75, true)], options)).toBe(113);
    expect(nextOfferedRate([trial(150, false), trial(75, true), trial(113, true)], options)).toBe(132);
    expect(nextOfferedRate([trial(150, false), trial(132, true)], options)).toBeUndefined();
  });

  it('when asked for the result, then it is the highest sustained rate, or 0', () => {
    expect(maxSustained([trial(150, false), trial(75, true), trial(113, true)])).toBe(113);
    expect(maxSustained([trial(150, false)])).toBe(0);
  });

  it('when a run kept up without a growing backlog or failures, then it is sustained; any one shortfall makes it not', () => {
    const good = { offeredPerSec: 150, achievedPerSec: 148, backlogGrowing: false, sent: 4500, failedRequests: 0, unfinished: 0 };
    expect(isSustained(good)).toBe(true);
    expect(isSustained({ ...good, backlogGrowing: true })).toBe(false);
    expect(isSustained({ ...good, achievedPerSec: 100 })).toBe(false);
    expect(isSustained({ ...good, failedRequests: 100 })).toBe(false);
    expect(isSustained({ ...good, unfinished: 1 })).toBe(false);
  });
});
