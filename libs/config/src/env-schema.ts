/**
 * A tiny, dependency-free schema for environment variables.
 *
 * Why not a validation library: the schema doubles as documentation (`.env.example` is checked
 * against it by a test) and every app must report ALL bad variables in one error, which is
 * simplest to guarantee with code we can read in one sitting.
 */
export type EnvValue = string | number | boolean | string[];

export interface EnvVarSpec<T extends EnvValue> {
  /** Human text for `.env.example` and error messages. */
  readonly description: string;
  /** Used when the variable is absent; `undefined` makes the variable required. */
  readonly default?: T;
  /** Type name shown in documentation (`string`, `integer`, ...). */
  readonly type: string;
  /** Parses the raw text; throws an Error whose message says what is wrong. */
  parse(raw: string): T;
}

export type EnvSchema = Record<string, EnvVarSpec<EnvValue>>;

export type EnvConfig<S extends EnvSchema> = {
  readonly [K in keyof S]: S[K] extends EnvVarSpec<infer T> ? T : never;
};

interface Common<T> {
  description: string;
  default?: T;
}

import { validateCronExpression } from 'cron';
import { redactCredentials } from './redact-credentials.js';

export const env = {
  string(options: Common<string> & { pattern?: RegExp }): EnvVarSpec<string> {
    return {
      type: 'string',
      ...options,
      parse(raw) {
        if (raw.trim() === '') throw new Error('must not be empty');
        if (options.pattern && !options.pattern.test(raw)) {
          throw new Error(`must match ${options.pattern}`);
        }
        return raw;
      },
    };
  },

  integer(options: Common<number> & { min?: number; max?: number }): EnvVarSpec<number> {
    const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
    return {
      type: `integer ${min === Number.MIN_SAFE_INTEGER ? '' : min}..${max === Number.MAX_SAFE_INTEGER ? '' : max}`,
      ...options,
      parse(raw) {
        if (!/^-?\d+$/.test(raw.trim())) throw new Error(`must be an integer, got "${raw}"`);
        const value = Number(raw);
        if (value < min || value > max) throw new Error(`must be between ${min} and ${max}, got ${value}`);
        return value;
      },
    };
  },

  port(options: Common<number>): EnvVarSpec<number> {
    return { ...env.integer({ ...options, min: 1, max: 65535 }), type: 'port' };
  },

  boolean(options: Common<boolean>): EnvVarSpec<boolean> {
    return {
      type: 'boolean',
      ...options,
      parse(raw) {
        const text = raw.trim().toLowerCase();
        if (['true', '1', 'yes'].includes(text)) return true;
        if (['false', '0', 'no'].includes(text)) return false;
        throw new Error(`must be true or false, got "${raw}"`);
      },
    };
  },

  url(options: Common<string> & { protocols: string[] }): EnvVarSpec<string> {
    return {
      type: `url (${options.protocols.join(', ')})`,
      ...options,
      parse(raw) {
        let parsed: URL;
        try {
          parsed = new URL(raw);
        } catch {
          // Never the raw value: a connection string carries its password.
          throw new Error(`must be a URL, got "${redactCredentials(raw)}"`);
        }
        if (!options.protocols.includes(parsed.protocol.replace(/:$/, ''))) {
          throw new Error(`must use ${options.protocols.join(' or ')}, got "${parsed.protocol}"`);
        }
        return raw;
      },
    };
  },

  /** A cron expression with seconds, as `@nestjs/schedule` takes it (every five minutes: `0 0/5 * * * *`). */
  cron(options: Common<string>): EnvVarSpec<string> {
    return {
      type: 'cron expression',
      ...options,
      parse(raw) {
        const { valid, error } = validateCronExpression(raw);
        if (!valid) throw new Error(`must be a cron expression (${error?.message ?? 'invalid'}), got "${raw}"`);
        return raw;
      },
    };
  },

  /** Comma-separated list, e.g. `host1:9092,host2:9092`. */
  list(options: Common<string[]> & { itemPattern?: RegExp }): EnvVarSpec<string[]> {
    return {
      type: 'comma-separated list',
      ...options,
      parse(raw) {
        const items = raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
        if (items.length === 0) throw new Error('must list at least one item');
        const bad = options.itemPattern ? items.filter((item) => !options.itemPattern!.test(item)) : [];
        if (bad.length > 0) throw new Error(`has malformed item(s): ${bad.join(', ')}`);
        return items;
      },
    };
  },
};
