/**
 * Compares what a command printed with what a page says it prints, by shape. The page's words:
 *
 * - JSON answers: every field shown must be there with the value shown; `...` as a member or an
 *   element means "and more"; without it the object (or array) has exactly what is shown. A string
 *   ending in `...` is a prefix (`"0b9f8f21-..."`).
 * - A UUID shown is a name for whatever UUID the run got in that place: the first sighting binds it,
 *   every later one (and every later command naming it) means the same value.
 * - Other output: the lines shown appear in that order (a tool may print more, such as npm's banner).
 *   In an abridged sample a word holding a digit (a time, an id, an offset) may be any word.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const IS_UUID = new RegExp(`^${UUID.source}$`);
/** Stands for a `...` member or element once the page's JSON is parsed. */
const MORE = '\u0000more';

/** The UUIDs a page names, bound to those the run got. */
export class Bindings {
  private readonly actualOf = new Map<string, string>();

  /** `documented` means `actual` from now on; false when it already means another value. */
  bind(documented: string, actual: string): boolean {
    const bound = this.actualOf.get(documented);
    if (bound === undefined) this.actualOf.set(documented, actual);
    return (bound ?? actual) === actual;
  }

  /** The value a documented prefix (`0b9f8f21-`) stands for, when a bound UUID starts with it. */
  boundWithPrefix(prefix: string): string | undefined {
    if (prefix.length < 8) return undefined;
    for (const [documented, actual] of this.actualOf) if (documented.startsWith(prefix)) return actual;
    return undefined;
  }

  /** A copy to try an answer on: what it binds is kept only when the answer matches ({@link adopt}). */
  copy(): Bindings {
    const copy = new Bindings();
    for (const [documented, actual] of this.actualOf) copy.actualOf.set(documented, actual);
    return copy;
  }

  /** Keeps what `trial` (a {@link copy} of this) bound. */
  adopt(trial: Bindings): void {
    for (const [documented, actual] of trial.actualOf) this.actualOf.set(documented, actual);
  }

  /** `text` with every bound UUID replaced by the run's value (for the next command). */
  apply(text: string): string {
    return text.replace(UUID, (id) => this.actualOf.get(id) ?? id);
  }
}

/** The page's JSON, with each bare `...` turned into a {@link MORE} marker JSON.parse accepts. */
function parseJsonShape(text: string): unknown {
  let out = '';
  const open: string[] = [];
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      out += char;
      if (char === '\\') out += text[++index];
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') open.push(char);
    else if (char === '}' || char === ']') open.pop();
    else if (text.startsWith('...', index)) {
      out += open.at(-1) === '{' ? '"\\u0000more":true' : '"\\u0000more"';
      index += 2;
      continue;
    }
    out += char;
  }
  return JSON.parse(out);
}

type Mismatch = string | undefined;

function matchValue(shape: unknown, actual: unknown, path: string, bindings: Bindings): Mismatch {
  if (typeof shape === 'string') {
    if (typeof actual !== 'string') return `${path}: want a string "${shape}", got ${JSON.stringify(actual)}`;
    if (IS_UUID.test(shape) && IS_UUID.test(actual))
      return bindings.bind(shape, actual) ? undefined : `${path}: ${shape} was another id earlier on the page, got ${actual}`;
    if (shape.endsWith('...')) {
      const prefix = shape.slice(0, -3);
      const bound = bindings.boundWithPrefix(prefix);
      if (bound !== undefined) return actual === bound ? undefined : `${path}: want ${bound} (shown as ${shape}), got ${actual}`;
      return actual.startsWith(prefix) ? undefined : `${path}: want a string starting "${prefix}", got "${actual}"`;
    }
    return shape === actual ? undefined : `${path}: want "${shape}", got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(actual)) return `${path}: want an array, got ${JSON.stringify(actual)}`;
    const more = shape.at(-1) === MORE;
    const items = more ? shape.slice(0, -1) : shape;
    if (more ? actual.length < items.length : actual.length !== items.length)
      return `${path}: want ${more ? 'at least ' : ''}${items.length} element(s), got ${actual.length}`;
    for (const [index, item] of items.entries()) {
      const mismatch = matchValue(item, actual[index], `${path}[${index}]`, bindings);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (shape !== null && typeof shape === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${path}: want an object, got ${JSON.stringify(actual)}`;
    const fields = Object.entries(shape).filter(([key]) => key !== MORE);
    for (const [key, value] of fields) {
      if (!(key in actual)) return `${path}.${key}: missing (fields: ${Object.keys(actual).join(', ')})`;
      const mismatch = matchValue(value, (actual as Record<string, unknown>)[key], `${path}.${key}`, bindings);
      if (mismatch) return mismatch;
    }
    if (!(MORE in shape)) {
      const extra = Object.keys(actual).filter((key) => !(key in shape));
      if (extra.length > 0) return `${path}: fields not shown on the page (end the object with ",...}"): ${extra.join(', ')}`;
    }
    return undefined;
  }
  return Object.is(shape, actual) ? undefined : `${path}: want ${JSON.stringify(shape)}, got ${JSON.stringify(actual)}`;
}

function wordsMatch(shown: string, printed: string, abridged: boolean): boolean {
  const want = shown.trim().split(/\s+/);
  const got = printed.trim().split(/\s+/);
  if (want.length !== got.length) return false;
  return want.every((word, index) => {
    if (abridged && /\d/.test(word)) return true;
    if (word.includes('...')) return got[index].startsWith(word.slice(0, word.indexOf('...')));
    return word === got[index];
  });
}

/**
 * Why `printed` is not what `shown` says, or undefined when it is. `bindings` learns the UUIDs
 * of a JSON answer.
 */
export function answerMismatch(shown: readonly string[], printed: string, bindings: Bindings, abridged = false): Mismatch {
  const text = shown.join('\n').trim();
  let shape: unknown;
  let isJson = false;
  try {
    shape = parseJsonShape(text);
    isJson = typeof shape === 'object' && shape !== null;
  } catch (error) {
    // `[inventory:seed] ...` is a line of text; an object that does not parse is the page's mistake.
    if (text.startsWith('{')) return `the page's answer is not JSON with "..." (${(error as Error).message}): ${text}`;
  }
  if (isJson) {
    let actual: unknown;
    try {
      actual = JSON.parse(printed);
    } catch {
      return `want JSON, got: ${printed.slice(0, 500)}`;
    }
    return matchValue(shape, actual, '$', bindings);
  }
  const lines = printed.split('\n');
  let from = 0;
  for (const want of shown.filter((line) => line.trim() !== '')) {
    const found = lines.findIndex((line, index) => index >= from && wordsMatch(want, line, abridged));
    if (found < 0) return `line not printed (in this order): ${want}\nprinted:\n${printed.slice(0, 4000)}`;
    from = found + 1;
  }
  return undefined;
}

/**
 * The HTTP status a page's answer states: the number itself for a `-w '%{http_code}'` line, a
 * problem document's `status`; otherwise a success (2xx) is meant.
 */
export function statedStatus(shown: readonly string[]): number | '2xx' {
  const text = shown.join('\n').trim();
  if (/^\d{3}$/.test(text)) return Number(text);
  const status = /^\{.*"status":\s*(\d{3})\b/s.exec(text);
  if (status && text.includes('"title"')) return Number(status[1]);
  return '2xx';
}
