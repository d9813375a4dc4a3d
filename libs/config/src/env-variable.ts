import { validateCronExpression } from 'cron';
import * as z from 'zod';
import { redactCredentials } from './redact-credentials.js';

// Environment variables declared with zod, the schema library the workspace uses for messages too
// (Standard Schema). Each variable is ONE declaration: a zod schema from the raw text (`undefined`
// when unset) to its typed value, carrying its default and bounds, and, in `envDocs`, the
// description and type name that `.env.example` and the "is required" error show.

/** What a variable may parse to. */
export type EnvValue = string | number | boolean | string[];

/** One environment variable: parses its raw text, or `undefined` when unset (the default, if any, applies). */
export type EnvVariable<T extends EnvValue = EnvValue> = z.ZodType<T, string | undefined>;

/** The variables one process reads, by name. */
export type EnvSchema = Record<string, EnvVariable>;

/** The typed configuration a schema yields: each variable's parsed value, defaults applied. */
export type EnvConfig<S extends EnvSchema> = {
  readonly [K in keyof S]: z.output<S[K]>;
};

interface EnvDoc {
  /** Human text for `.env.example` and the "is required" error. */
  readonly description: string;
  /** Type name shown in documentation (`string`, `integer 1..200`, ...). */
  readonly type: string;
}

/** Description and type name of every variable declared with {@link env}. */
const envDocs = z.registry<EnvDoc>();

interface Common<T> {
  description: string;
  /** Used when the variable is unset or empty; without it the variable is required. */
  default?: T;
}

/** Wraps `value` (a schema of the text) into a variable: required unless defaulted, documented. */
function variable<T extends EnvValue>(type: string, options: Common<T>, value: z.ZodType<T, string>): EnvVariable<T> {
  // The leading string check is where an unset variable without default fails: say what it is for.
  const text = z.string({
    error: (issue) => (issue.input === undefined ? `is required (${type}): ${options.description}` : undefined),
  });
  const parsed = text.pipe(value);
  const withDefault: EnvVariable<T> = options.default === undefined ? parsed : parsed.default(options.default as z.util.NoUndefined<T>);
  return withDefault.register(envDocs, { type, description: options.description });
}

function integerText(min: number, max: number): z.ZodType<number, string> {
  const between = { error: (issue: { input?: unknown }) => `must be between ${min} and ${max}, got ${String(issue.input)}` };
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, { abort: true, error: (issue) => `must be an integer, got "${String(issue.input)}"` })
    .transform(Number)
    .pipe(z.number().min(min, between).max(max, between));
}

/**
 * Builders of {@link EnvVariable}s, one per kind of value. Every one takes a `description` (shown in
 * `.env.example` and in the error when the variable is missing) and an optional `default` (used when
 * the variable is unset or empty; without one, the variable is required).
 */
export const env = {
  string(options: Common<string> & { pattern?: RegExp }): EnvVariable<string> {
    const nonEmpty = z.string().refine((raw) => raw.trim() !== '', { abort: true, error: 'must not be empty' });
    return variable(
      'string',
      options,
      options.pattern ? nonEmpty.regex(options.pattern, { error: `must match ${options.pattern}` }) : nonEmpty,
    );
  },

  integer(options: Common<number> & { min?: number; max?: number }): EnvVariable<number> {
    const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
    const type = `integer ${min === Number.MIN_SAFE_INTEGER ? '' : min}..${max === Number.MAX_SAFE_INTEGER ? '' : max}`;
    return variable(type, options, integerText(min, max));
  },

  port(options: Common<number>): EnvVariable<number> {
    return variable('port', options, integerText(1, 65535));
  },

  /** `true`, `1` or `yes`; `false`, `0` or `no`; any case. */
  boolean(options: Common<boolean>): EnvVariable<boolean> {
    const words = z.stringbool({
      truthy: ['true', '1', 'yes'],
      falsy: ['false', '0', 'no'],
      error: (issue) => `must be true or false, got "${String(issue.input)}"`,
    });
    return variable('boolean', options, z.string().trim().pipe(words));
  },

  url(options: Common<string> & { protocols: string[] }): EnvVariable<string> {
    const { protocols } = options;
    const protocolOf = (raw: string) => new URL(raw).protocol.replace(/:$/, '');
    const url = z
      // Never the raw value: a connection string carries its password.
      .url({ abort: true, error: (issue) => `must be a URL, got "${redactCredentials(String(issue.input))}"` })
      .refine((raw) => protocols.includes(protocolOf(raw)), {
        error: (issue) => `must use ${protocols.join(' or ')}, got "${protocolOf(String(issue.input))}:"`,
      });
    return variable(`url (${protocols.join(', ')})`, options, url);
  },

  /** A cron expression with seconds, as `@nestjs/schedule` takes it (every five minutes: `0 0/5 * * * *`). */
  cron(options: Common<string>): EnvVariable<string> {
    const cron = z.string().superRefine((raw, context) => {
      const { valid, error } = validateCronExpression(raw);
      if (!valid) context.addIssue({ code: 'custom', message: `must be a cron expression (${error?.message ?? 'invalid'}), got "${raw}"` });
    });
    return variable('cron expression', options, cron);
  },

  /** Comma-separated list, e.g. `host1:9092,host2:9092`. */
  list(options: Common<string[]> & { itemPattern?: RegExp }): EnvVariable<string[]> {
    const { itemPattern } = options;
    const malformed = (items: string[]) => (itemPattern ? items.filter((item) => !itemPattern.test(item)) : []);
    const list = z
      .string()
      .transform((raw) =>
        raw
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      )
      .pipe(
        z
          .array(z.string())
          .min(1, { abort: true, error: 'must list at least one item' })
          .refine((items) => malformed(items).length === 0, {
            error: (issue) => `has malformed item(s): ${malformed(issue.input as string[]).join(', ')}`,
          }),
      );
    return variable('comma-separated list', options, list);
  },
};

/** The value an unset variable takes: its default, or `undefined` when it is required. */
export function envDefault<T extends EnvValue>(variable: EnvVariable<T>): T | undefined {
  const unset = variable.safeParse(undefined);
  return unset.success ? unset.data : undefined;
}

/** Description and type name of `variable`, which must have been declared with {@link env}. */
export function envDoc(name: string, variable: EnvVariable): EnvDoc {
  const doc = envDocs.get(variable);
  if (!doc) throw new Error(`${name} is not documented: declare it with env.string(), env.integer(), ...`);
  return doc;
}
