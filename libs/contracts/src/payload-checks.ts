/**
 * Minimal structural checks for payloads that cross a process boundary. Each returns a list of
 * problems ("items[0].quantity must be an integer >= 1"); empty means valid.
 */
export type Check = (value: unknown, path: string) => string[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const check = {
  string(options: { maxLength?: number; pattern?: RegExp } = {}): Check {
    return (value, path) => {
      if (typeof value !== 'string' || value === '') return [`${path} must be a non-empty string`];
      if (options.maxLength && value.length > options.maxLength) return [`${path} must be at most ${options.maxLength} characters`];
      if (options.pattern && !options.pattern.test(value)) return [`${path} has an invalid format`];
      return [];
    };
  },
  uuid(): Check {
    return check.string({ pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i });
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
};
