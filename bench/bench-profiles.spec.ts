import { describe, expect, it } from '@jest/globals';
import { needsLoyalty, needsStack, QUICK, SECTIONS, selectedSections, soakOptions, withFixedRate } from './bench-profiles.js';

describe('bench profiles and sections', () => {
  it('when no --only is given, then every section runs', () => {
    expect([...selectedSections(undefined)]).toEqual([...SECTIONS]);
  });

  it('when --only names sections, then only those run', () => {
    expect([...selectedSections('e2e,drain')]).toEqual(['e2e', 'drain']);
  });

  it('when --only names an unknown section or none, then it throws with the valid names', () => {
    expect(() => selectedSections('e2e,speed')).toThrow(/relay, inbox, http, e2e, overload, drain, layers/);
    expect(() => selectedSections('')).toThrow(/--only/);
  });

  it('when --only names a section that places orders or consumes them, then the run starts loyalty, and the stack for the loop sections', () => {
    expect(needsLoyalty(selectedSections('overload'))).toBe(true);
    expect(needsStack(selectedSections('overload'))).toBe(true);
    expect(needsLoyalty(selectedSections('drain'))).toBe(true);
    expect(needsLoyalty(selectedSections('inbox'))).toBe(true);
    expect(needsStack(selectedSections('inbox'))).toBe(false);
    expect(needsLoyalty(selectedSections('relay,http'))).toBe(false);
    // Each pass of the layers section starts a whole loop of its own.
    expect(needsLoyalty(selectedSections('layers'))).toBe(false);
    expect(needsStack(selectedSections('layers'))).toBe(false);
    for (const section of ['e2e', 'overload', 'drain'] as const)
      expect(needsLoyalty(new Set([section]))).toBe(needsStack(new Set([section])));
  });

  it('when quick, then it still offers 150 orders/s for at least 30 s', () => {
    expect(QUICK.e2e.fixedPerSec).toBe(150);
    expect(QUICK.e2e.fixedDurationMs).toBeGreaterThanOrEqual(30_000);
  });

  it('when --fixed-rate is given, then the end-to-end fixed rate is that, and nothing else of the profile changes; a malformed one throws', () => {
    expect(withFixedRate(QUICK, undefined)).toBe(QUICK);
    const slower = withFixedRate(QUICK, '80');
    expect(slower.e2e.fixedPerSec).toBe(80);
    expect({ ...slower, e2e: { ...slower.e2e, fixedPerSec: QUICK.e2e.fixedPerSec } }).toEqual(QUICK);
    expect(() => withFixedRate(QUICK, '0')).toThrow(/--fixed-rate takes orders per second/);
    expect(() => withFixedRate(QUICK, 'fast')).toThrow(/--fixed-rate/);
    expect(withFixedRate(QUICK, undefined, '30').e2e.warmUpMs).toBe(30_000);
    expect(() => withFixedRate(QUICK, undefined, '-1')).toThrow(/--warm-up takes seconds/);
  });

  it('when --soak is given minutes, then the soak runs that long at 70 % of --rate (or of no rate: the caller picks one)', () => {
    expect(soakOptions('5', undefined)).toEqual({ minutes: 5, share: 0.7, ratePerSec: undefined });
    expect(soakOptions('3', '200')).toEqual({ minutes: 3, share: 0.7, ratePerSec: 200 });
    expect(soakOptions(undefined, undefined)).toBeUndefined();
  });

  it('when --soak or --rate is not a positive number, then it throws naming the flag', () => {
    expect(() => soakOptions('', undefined)).toThrow(/--soak takes minutes/);
    expect(() => soakOptions('x', undefined)).toThrow(/--soak takes minutes/);
    expect(() => soakOptions('3', '-1')).toThrow(/--rate takes/);
  });
});
