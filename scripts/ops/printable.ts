/**
 * Terminal-safe text of what the operator tool prints. A dead letter is attacker-controlled data
 * (anyone who can produce to a topic shapes its key, value, headers and error): raw bytes could
 * carry terminal escape sequences (rewrite the screen, set the title, hide lines) or bidi
 * overrides that make text read differently than it is.
 */

// C0 controls except newline and tab, DEL, C1 controls, bidi embeddings/overrides/isolates, line and paragraph separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every unsafe character escaped as `\u{XXXX}`; newlines and tabs kept unless `singleLine`. */
export function sanitize(text: string, singleLine = false): string {
  const escaped = text.replace(UNSAFE, (char) => `\\u{${char.codePointAt(0)!.toString(16).padStart(4, '0')}}`);
  return singleLine ? escaped.replace(/\n/g, '\\n').replace(/\t/g, '\\t') : escaped;
}

/** Shown in full up to this many bytes of binary; beyond, the length says how much more there is. */
const HEX_PREVIEW_BYTES = 64;

/**
 * A key, header or value for the terminal: `(null)`; UTF-8 text (pretty JSON when it parses),
 * sanitized; or, for bytes that are not text, `(binary, N bytes) <hex of the first 64>...`.
 */
export function printableBytes(value: Buffer | string | null | undefined, singleLine = false): string {
  if (value === null || value === undefined) return '(null)';
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const text = bytes.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(bytes) && !text.includes('\u0000');
  if (!isText) {
    const hex = bytes.subarray(0, HEX_PREVIEW_BYTES).toString('hex');
    return `(binary, ${bytes.length} bytes) ${hex}${bytes.length > HEX_PREVIEW_BYTES ? '...' : ''}`;
  }
  if (!singleLine) {
    try {
      return sanitize(JSON.stringify(JSON.parse(text), null, 2));
    } catch {
      // not JSON: the text itself
    }
  }
  return sanitize(text, singleLine);
}
