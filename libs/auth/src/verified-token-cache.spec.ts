import { describe, expect, it } from '@jest/globals';
import type { Principal } from './principal.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

const principal = (subject: string): Principal => ({ subject, scopes: [], kind: 'customer' });

describe('VerifiedTokenCache', () => {
  let clock = 0;
  const cache = (maxEntries = 3, maxAgeMs = 60_000) => new VerifiedTokenCache(maxEntries, maxAgeMs, () => clock);

  it('when a remembered token is asked for, then its principal is answered; an unknown token is not', () => {
    clock = 0;
    const tokens = cache();
    tokens.remember('token-a', principal('a'), 10_000);
    expect(tokens.get('token-a')).toEqual(principal('a'));
    expect(tokens.get('token-b')).toBeUndefined();
  });

  it('when the token has expired, then it is not answered any more, even within the age bound', () => {
    clock = 0;
    const tokens = cache();
    tokens.remember('token-a', principal('a'), 5_000);
    clock = 4_999;
    expect(tokens.get('token-a')).toEqual(principal('a'));
    clock = 5_000;
    expect(tokens.get('token-a')).toBeUndefined();
  });

  it('when a long-lived token is older than the age bound, then it must be verified again', () => {
    clock = 1_000;
    const tokens = cache(3, 60_000);
    tokens.remember('token-a', principal('a'), 3_600_000);
    clock = 60_999;
    expect(tokens.get('token-a')).toEqual(principal('a'));
    clock = 61_000;
    expect(tokens.get('token-a')).toBeUndefined();
  });

  it('when more tokens than the bound are remembered, then the oldest is forgotten first', () => {
    clock = 0;
    const tokens = cache(2);
    tokens.remember('token-a', principal('a'), 10_000);
    tokens.remember('token-b', principal('b'), 10_000);
    tokens.remember('token-c', principal('c'), 10_000);
    expect([tokens.get('token-a'), tokens.get('token-b'), tokens.get('token-c')]).toEqual([undefined, principal('b'), principal('c')]);
  });
});
