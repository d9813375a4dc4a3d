import { formatValue } from './env-table.js';
import { envDefault, envDoc, type EnvSchema, type EnvVariable } from './env-variable.js';

/** One process that reads a variable, and its declaration there (defaults may differ by process). */
export interface EnvReader {
  readonly process: string;
  readonly variable: EnvVariable;
}

/** Renders a schema as `.env.example` lines: a comment with type, default and meaning, then `NAME=default`. */
export function renderEnvExample(title: string, schema: EnvSchema): string {
  const lines = [`# --- ${title} ---`];
  for (const [name, variable] of Object.entries(schema)) lines.push(...renderEnvExampleEntry(name, [{ process: title, variable }]));
  return lines.join('\n');
}

/**
 * One variable as `.env.example` lines, from every process that reads it: the first declaration's
 * meaning and type, then `NAME=default`. When the processes' defaults differ (`DATABASE_NAME` is
 * each app's name), the line is commented out and the comment lists each default: one `.env` serves
 * every process, so a value set there would apply to all of them.
 */
export function renderEnvExampleEntry(name: string, readers: readonly EnvReader[]): string[] {
  if (readers.length === 0) throw new Error(`${name}: no process reads it`);
  const { description, type } = envDoc(name, readers[0].variable);
  const defaults = readers.map((reader) => ({ process: reader.process, value: envDefault(reader.variable) }));
  const texts = new Set(defaults.map(({ value }) => (value === undefined ? undefined : formatValue(value))));
  if (texts.size > 1) {
    const each = defaults.map(({ process, value }) => `${process} ${value === undefined ? 'required' : formatValue(value) || '(empty)'}`);
    return [`# ${description} [${type}; default per process: ${each.join(', ')}]`, `#${name}=`];
  }
  const value = defaults[0].value;
  const defaultText = value === undefined ? 'required' : `default ${formatValue(value) || '(empty)'}`;
  return [`# ${description} [${type}; ${defaultText}]`, `${name}=${value === undefined ? '' : quoteForShell(formatValue(value))}`];
}

/** Quotes values with spaces or shell characters, so the file can also be `source`d. */
function quoteForShell(text: string): string {
  return /^[A-Za-z0-9_.,:/@+-]*$/.test(text) ? text : `"${text.replace(/(["\\$`])/g, '\\$1')}"`;
}
