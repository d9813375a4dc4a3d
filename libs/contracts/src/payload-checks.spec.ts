import { describe, expect, it } from '@jest/globals';
import { check, codePointLength } from './payload-checks.js';

describe('check.string', () => {
  const customer = check.string({ maxLength: 64 });

  it('when a string holds characters outside the BMP, then its length is counted in code points, not UTF-16 units', () => {
    const emoji = '😀'.repeat(64);
    expect(emoji.length).toBe(128);
    expect(codePointLength(emoji)).toBe(64);
    expect(customer(emoji, 'customerId')).toEqual([]);
    expect(customer(`${emoji}😀`, 'customerId')).toEqual(['customerId must be at most 64 characters (Unicode code points)']);
  });

  it('when a string is at the limit in ASCII, then it passes; one more character fails', () => {
    expect(customer('c'.repeat(64), 'customerId')).toEqual([]);
    expect(customer('c'.repeat(65), 'customerId')).toHaveLength(1);
  });

  it('when a string holds a lone surrogate or U+0000 (which Postgres jsonb/text refuse), then it fails', () => {
    expect(customer('a\ud800b', 'customerId')).toEqual(['customerId must be well-formed Unicode text without U+0000']);
    expect(customer('a\udc00', 'customerId')).toHaveLength(1);
    expect(customer('a\u0000b', 'customerId')).toHaveLength(1);
  });

  it('when a pattern fails and a description is given, then the problem uses it', () => {
    expect(check.string({ pattern: /^A$/, description: 'must be A' })('B', 'x')).toEqual(['x must be A']);
  });
});

describe('check.all', () => {
  it('when several checks apply, then the problems of each are listed', () => {
    const both = check.all(check.integer({ max: 5 }), (value, path) => (value === 7 ? [`${path} is seven`] : []));
    expect(both(7, 'n')).toEqual(['n must be an integer from 0 to 5', 'n is seven']);
    expect(both(3, 'n')).toEqual([]);
  });
});
