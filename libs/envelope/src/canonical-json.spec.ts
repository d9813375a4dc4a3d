import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('when object keys come in another order, then the text is the same, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"x":1,"y":2}]},"b":1}');
    expect(canonicalJson({ a: { c: 'x', d: [1, { x: 1, y: 2 }] }, b: 1 })).toBe(
      canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } }),
    );
  });

  it('when array elements come in another order, then the text differs (order is meaningful)', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('when a field is undefined, then it is left out like JSON.stringify does', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });

  it('when values are primitives, null or undefined, then they are rendered as JSON', () => {
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });

  it('when it renders anything, then the result parses back to an equal value', () => {
    const value = { z: [{ b: null, a: 'é' }], n: -0.25, s: 'line\nbreak' };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});
