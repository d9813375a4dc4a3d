import { z } from 'zod';

/**
 * The zod builders every contract field is made of. Each gives one schema three uses: the
 * TypeScript type (`z.infer`), the runtime check (its problems read "must be an integer from 1 to
 * 1000", named by field where they are reported), and the JSON Schema (`z.toJSONSchema`, published
 * in docs/asyncapi.json), so none can drift from the others. Where zod's own check would count or
 * read differently from what a consumer enforces (lengths in code points, any `Date.parse`able
 * timestamp), the check is ours and the JSON Schema keyword is stated with `meta`.
 */

/**
 * Length of a string in Unicode code points: the unit Postgres counts (`varchar(n)`, `length()`),
 * the unit JSON Schema's `maxLength` counts, and the unit a person means by "characters" far more
 * often than UTF-16 code units. Every length limit of every contract is counted this way, in the
 * API as in the consumer (once the API counted code points and the contract UTF-16 units, so
 * 64 emoji passed one and failed the other).
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

/**
 * The pattern's source, which JSON Schema evaluates as an ECMA-262 regular expression without
 * flags: a flag other than `u` would make the published pattern accept or refuse other strings
 * than the check does, so it is refused when the field is declared.
 */
function schemaPattern(pattern: RegExp): string {
  if (pattern.flags.replace('u', '') !== '') throw new Error(`text: pattern ${pattern} has flags a JSON Schema pattern cannot carry`);
  return pattern.source;
}

/**
 * A non-empty, storable string; one problem at a time, the first that applies. `maxLength` counts
 * code points ({@link codePointLength}); `description` replaces the generic "has an invalid
 * format" when `pattern` fails, and describes the field in the JSON Schema.
 */
export function text(options: { maxLength?: number; pattern?: RegExp; description?: string; format?: 'uuid' } = {}) {
  const { maxLength, pattern, description, format } = options;
  return z
    .string({ error: 'must be a non-empty string' })
    .superRefine((value, context) => {
      const problem =
        value === ''
          ? 'must be a non-empty string'
          : !isStorableText(value)
            ? 'must be well-formed Unicode text without U+0000'
            : maxLength && codePointLength(value) > maxLength
              ? `must be at most ${maxLength} characters (Unicode code points)`
              : pattern && !pattern.test(value)
                ? (description ?? 'has an invalid format')
                : undefined;
      if (problem) context.addIssue({ code: 'custom', message: problem, input: value });
    })
    .meta({
      ...(format ? { format } : {}),
      minLength: 1,
      ...(maxLength ? { maxLength } : {}),
      ...(pattern ? { pattern: schemaPattern(pattern) } : {}),
      ...(description ? { description } : {}),
    });
}

/** Any UUID, either case (both spelled out rather than an `i` flag, which a JSON Schema pattern cannot carry). */
export const uuid = () =>
  text({
    pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    description: 'must be a UUID',
    format: 'uuid',
  });

/** Anything `Date.parse` reads; producers write ISO-8601 (`toISOString()`), hence the schema's `format`. */
export const timestamp = () =>
  z
    .string({ error: 'must be an ISO-8601 timestamp' })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: 'must be an ISO-8601 timestamp' })
    .meta({ format: 'date-time' });

/** A safe integer from `min` to `max`. */
export function integer(options: { min?: number; max?: number } = {}) {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
  const error = `must be an integer from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/**
 * One of a closed set of strings: a list (`['a', 'b']`) or the values of a codes object declared
 * once (`RejectionCodes`, `{ UNKNOWN_SKU: 'INVENTORY.UNKNOWN_SKU', ... }`).
 */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<{ [K in T[number]]: K }>;
export function oneOf<const T extends Readonly<Record<string, string>>>(codes: T): z.ZodEnum<{ [K in T[keyof T]]: K }>;
export function oneOf(values: readonly string[] | Readonly<Record<string, string>>) {
  const list: string[] = Array.isArray(values) ? [...values] : Object.values(values);
  return z.enum(list, { error: `must be one of ${list.join(', ')}` });
}

export function list<T extends z.ZodType>(item: T, options: { min?: number; max?: number } = {}) {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
  const error = `must have ${min} to ${max} entries`;
  return z.array(item, { error: 'must be an array' }).min(min, { error }).max(max, { error });
}

/**
 * An object with exactly these fields: an unknown field is a problem too (`additionalProperties: false`).
 * For requests a client sends (a typo in a field name gets a 400 naming it); never for a message
 * payload, which must be read by {@link tolerantRecord}.
 */
export function record<T extends z.ZodRawShape>(fields: T) {
  return z.strictObject(fields, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `has fields that are not allowed: ${issue.keys.join(', ')}` : 'must be an object',
  });
}

/**
 * A message payload read as a tolerant reader: these fields are checked, an unknown field is ignored
 * (dropped from the parsed value; the published JSON Schema has no `additionalProperties: false`).
 * Why: during a rolling deploy, a replay from the dead-letter topic or a re-read of retained
 * records, a consumer built from the previous contract meets messages of the next one. Adding an
 * optional field is then the compatible change (docs/contracts.md); a strict reader would
 * dead-letter every such message. test/contracts/contract-evolution.spec.ts refuses a payload
 * schema that is not tolerant.
 */
export function tolerantRecord<T extends z.ZodRawShape>(fields: T) {
  return z.object(fields, { error: 'must be an object' });
}
