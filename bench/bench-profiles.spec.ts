import { describe, expect, it } from '@jest/globals';
import { QUICK, SECTIONS, selectedSections } from './bench-profiles.js';

describe('bench profiles and sections', () => {
  it('when no --only is given, then every section runs', () => {
    expect([...selectedSections(undefined)]).toEqual([...SECTIONS]);
  });

  it('when --only names sections, then only those run', () => {
    expect([...selectedSections('e2e,drain')]).toEqual(['e2e', 'drain']);
  });

  it('when --only names an unknown section or none, then it throws with the valid names', () => {
    expect(() => selectedSections('e2e,speed')).toThrow(/relay, inbox, http, e2e, drain/);
    expect(() => selectedSections('')).toThrow(/--only/);
  });

  it('when quick, then it still offers 150 orders/s for at least 30 s', () => {
    expect(QUICK.e2e.fixedPerSec).toBe(150);
    expect(QUICK.e2e.fixedDurationMs).toBeGreaterThanOrEqual(30_000);
  });
});
