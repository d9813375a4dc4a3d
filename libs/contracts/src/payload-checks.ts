/**
 * Minimal structural checks for payloads that cross a process boundary. Each returns a list of
 * problems ("items[0].quantity must be an integer from 1 to 1000"); empty means valid. The same
 * checks run where a message is made (the producer's outbox, the HTTP request that causes it) and
 * where it is consumed (the inbox), so the two sides can never disagree about what is valid.
 */
export type Check = (value: unknown, path: string) => string[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Length of a string in Unicode code points: the unit Postgres counts (`varchar(n)`, `length()`)
 * and the unit a person means by "characters" far more often than UTF-16 code units. Every length
 * limit of every contract is counted this way, in the API as in the consumer (issue 7: the API
 * counted code points and the contract UTF-16 units, so 64 emoji passed one and failed the other).
 */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
}

/**
 * Text a Postgres `text`/`jsonb` column and every JSON parser accept: well-formed UTF-16 (no lone
 * surrogate, which `jsonb` refuses) and no U+0000 (which `text` refuses).
 */
function isStorableText(value: string): boolean {
  // With the `u` flag a valid surrogate pair is one code point; only a lone half matches \p{Cs}.
  return !/\p{Cs}/u.test(value) && !value.includes('\u0000');
}

export const check = {
  /**
   * A non-empty, storable string. `maxLength` counts code points ({@link codePointLength});
   * `description` replaces the generic "has an invalid format" when `pattern` fails.
   */
  string(options: { maxLength?: number; pattern?: RegExp; description?: string } = {}): Check {
    return (value, path) => {
      if (typeof value !== 'string' || value === '') return [`${path} must be a non-empty string`];
      if (!isStorableText(value)) return [`${path} must be well-formed Unicode text without U+0000`];
      if (options.maxLength && codePointLength(value) > options.maxLength) {
        return [`${path} must be at most ${options.maxLength} characters (Unicode code points)`];
      }
      if (options.pattern && !options.pattern.test(value)) return [`${path} ${options.description ?? 'has an invalid format'}`];
      return [];
    };
  },
  uuid(): Check {
    return check.string({ pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, description: 'must be a UUID' });
  },
  timestamp(): Check {
    return (value, path) =>
      typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? [] : [`${path} must be an ISO-8601 timestamp`];
  },
  integer(options: { min?: number; max?: number } = {}): Check {
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
    return (value, path) =>
      Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
        ? []
        : [`${path} must be an integer from ${min} to ${max}`];
  },
  oneOf<T extends string>(values: readonly T[]): Check {
    return (value, path) => (values.includes(value as T) ? [] : [`${path} must be one of ${values.join(', ')}`]);
  },
  array(item: Check, options: { min?: number; max?: number } = {}): Check {
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
    return (value, path) => {
      if (!Array.isArray(value)) return [`${path} must be an array`];
      if (value.length < min || value.length > max) return [`${path} must have ${min} to ${max} entries`];
      return value.flatMap((entry, index) => item(entry, `${path}[${index}]`));
    };
  },
  /** An object with exactly these fields: unknown fields are problems too. */
  object(fields: Record<string, Check>, options: { optional?: string[] } = {}): Check {
    return (value, path) => {
      if (!isObject(value)) return [`${path} must be an object`];
      const problems = Object.keys(value)
        .filter((key) => !(key in fields))
        .map((key) => `${path}.${key} is not allowed`);
      for (const [key, fieldCheck] of Object.entries(fields)) {
        if (value[key] === undefined && options.optional?.includes(key)) continue;
        problems.push(...fieldCheck(value[key], `${path}.${key}`));
      }
      return problems;
    };
  },
  /** Every check in turn; a later one sees values an earlier one may have refused, so each must tolerate junk. */
  all(...checks: Check[]): Check {
    return (value, path) => checks.flatMap((each) => each(value, path));
  },
};
