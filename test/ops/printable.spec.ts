import { describe, expect, it } from '@jest/globals';
import { printableBytes, sanitize } from '../../scripts/ops/printable.js';

describe('printable output of the operator tool', () => {
  it('when text carries terminal escapes or bidi overrides, then they are shown escaped, never emitted', () => {
    const hostile = 'ok\u001b]0;owned\u0007\u001b[2J\u202egnp.exe';
    const shown = sanitize(hostile);
    expect(shown).toBe('ok\\u{001b}]0;owned\\u{0007}\\u{001b}[2J\\u{202e}gnp.exe');
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('when single-line output is asked for, then newlines are escaped too (one record per line stays one line)', () => {
    expect(sanitize('a\nb\tc', true)).toBe('a\\nb\\tc');
    expect(sanitize('a\nb')).toBe('a\nb');
  });

  it('when the value is not UTF-8 text, then it is shown as its length and hex, not as raw bytes', () => {
    const binary = Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x1b]);
    expect(printableBytes(binary)).toBe('(binary, 5 bytes) 0001fffe1b');
    expect(printableBytes(Buffer.alloc(100, 0xff))).toMatch(/^\(binary, 100 bytes\) (ff){64}\.\.\.$/);
  });

  it('when the value is JSON, then it is pretty-printed, its strings sanitized; null is (null)', () => {
    // JSON escapes the control character itself; the bidi override it leaves as is is escaped here.
    expect(printableBytes(Buffer.from('{"a":"x\\u001b[31m\u202e"}'))).toBe('{\n  "a": "x\\u001b[31m\\u{202e}"\n}');
    expect(printableBytes(null)).toBe('(null)');
  });
});
