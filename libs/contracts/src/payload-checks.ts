/**
 * Minimal structural checks for payloads that cross a process boundary. Each returns a list of
 * problems ("items[0].quantity must be an integer from 1 to 1000"); empty means valid. The same
 * checks run where a message is made (the producer's outbox, the HTTP request that causes it) and
 * where it is consumed (the inbox), so the two sides can never disagree about what is valid.
 */
export type Check = (value: unknown, path: string) => string[];

/**
 * The subset of JSON Schema (draft-07, which AsyncAPI's schema format extends) that the builders
 * below emit. Only what a check enforces is written, so a schema never promises more than a check.
 */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'array' | 'object';
  description?: string;
  format?: 'uuid' | 'date-time';
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  allOf?: JsonSchema[];
}

/**
 * A check that carries the JSON Schema of what it accepts, built from the same options (and so the
 * same limit constants) as the check itself: `scripts/asyncapi-document.ts` publishes these schemas,
 * and they cannot drift from what producers and consumers enforce.
 */
export type SchemaCheck = Check & { readonly schema: JsonSchema };

const withSchema = (fn: Check, schema: JsonSchema): SchemaCheck => Object.assign(fn, { schema });

/**
 * The pattern's source, which JSON Schema evaluates as an ECMA-262 regular expression without
 * flags: a flag other than `u` would make the published pattern accept or refuse other strings
 * than the check does, so it is refused when the check is declared.
 */
function schemaPattern(pattern: RegExp): string {
  if (pattern.flags.replace('u', '') !== '') throw new Error(`check.string: pattern ${pattern} has flags a JSON Schema pattern cannot carry`);
  return pattern.source;
}

/**
 * `all`'s schema: the checks' schemas merged into one when no keyword appears in two of them
 * (the common case: a structure plus a described rule), else `allOf`. Checks without a schema add
 * nothing, so give a rule a schema with {@link check.rule}.
 */
function mergeSchemas(schemas: JsonSchema[]): JsonSchema {
  const merged: Record<string, unknown> = {};
  for (const schema of schemas) {
    for (const [key, value] of Object.entries(schema)) {
      if (key in merged) return { allOf: schemas };
      merged[key] = value;
    }
  }
  return merged;
}

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
   * A non-empty, storable string. `maxLength` counts code points ({@link codePointLength}), as
   * JSON Schema's `maxLength` does; `description` replaces the generic "has an invalid format" when
   * `pattern` fails, and describes the field in the schema.
   */
  string(options: { maxLength?: number; pattern?: RegExp; description?: string; format?: JsonSchema['format'] } = {}): SchemaCheck {
    const schema: JsonSchema = {
      type: 'string',
      ...(options.format ? { format: options.format } : {}),
      minLength: 1,
      ...(options.maxLength ? { maxLength: options.maxLength } : {}),
      ...(options.pattern ? { pattern: schemaPattern(options.pattern) } : {}),
      ...(options.description ? { description: options.description } : {}),
    };
    return withSchema((value, path) => {
      if (typeof value !== 'string' || value === '') return [`${path} must be a non-empty string`];
      if (!isStorableText(value)) return [`${path} must be well-formed Unicode text without U+0000`];
      if (options.maxLength && codePointLength(value) > options.maxLength) {
        return [`${path} must be at most ${options.maxLength} characters (Unicode code points)`];
      }
      if (options.pattern && !options.pattern.test(value)) return [`${path} ${options.description ?? 'has an invalid format'}`];
      return [];
    }, schema);
  },
  uuid(): SchemaCheck {
    // Both cases spelled out rather than an `i` flag, which a JSON Schema pattern cannot carry.
    return check.string({ pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, description: 'must be a UUID', format: 'uuid' });
  },
  /** Anything `Date.parse` reads; producers write ISO-8601 (`toISOString()`), hence the schema's `format`. */
  timestamp(): SchemaCheck {
    return withSchema(
      (value, path) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? [] : [`${path} must be an ISO-8601 timestamp`]),
      { type: 'string', format: 'date-time' },
    );
  },
  integer(options: { min?: number; max?: number } = {}): SchemaCheck {
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
    return withSchema(
      (value, path) =>
        Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
          ? []
          : [`${path} must be an integer from ${min} to ${max}`],
      { type: 'integer', minimum: min, maximum: max },
    );
  },
  oneOf<T extends string>(values: readonly T[]): SchemaCheck {
    return withSchema((value, path) => (values.includes(value as T) ? [] : [`${path} must be one of ${values.join(', ')}`]), {
      type: 'string',
      enum: values,
    });
  },
  array(item: SchemaCheck, options: { min?: number; max?: number } = {}): SchemaCheck {
    const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
    return withSchema(
      (value, path) => {
        if (!Array.isArray(value)) return [`${path} must be an array`];
        if (value.length < min || value.length > max) return [`${path} must have ${min} to ${max} entries`];
        return value.flatMap((entry, index) => item(entry, `${path}[${index}]`));
      },
      { type: 'array', items: item.schema, minItems: min, maxItems: max },
    );
  },
  /** An object with exactly these fields: unknown fields are problems too. */
  object(fields: Record<string, SchemaCheck>, options: { optional?: string[] } = {}): SchemaCheck {
    return withSchema(
      (value, path) => {
        if (!isObject(value)) return [`${path} must be an object`];
        const problems = Object.keys(value)
          .filter((key) => !(key in fields))
          .map((key) => `${path}.${key} is not allowed`);
        for (const [key, fieldCheck] of Object.entries(fields)) {
          if (value[key] === undefined && options.optional?.includes(key)) continue;
          problems.push(...fieldCheck(value[key], `${path}.${key}`));
        }
        return problems;
      },
      {
        type: 'object',
        properties: Object.fromEntries(Object.entries(fields).map(([key, fieldCheck]) => [key, fieldCheck.schema])),
        required: Object.keys(fields).filter((key) => !options.optional?.includes(key)),
        additionalProperties: false,
      },
    );
  },
  /**
   * A rule JSON Schema cannot express (a sum over array entries, say): its schema is only its
   * `description`, so the published document still states it in words.
   */
  rule(description: string, fn: Check): SchemaCheck {
    return withSchema(fn, { description });
  },
  /** Every check in turn; a later one sees values an earlier one may have refused, so each must tolerate junk. */
  all(...checks: Check[]): SchemaCheck {
    const schemas = checks.flatMap((each) => ('schema' in each ? [(each as SchemaCheck).schema] : []));
    return withSchema((value, path) => checks.flatMap((each) => each(value, path)), mergeSchemas(schemas));
  },
};
