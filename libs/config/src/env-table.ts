import { envDefault, envDoc, type EnvSchema } from './env-variable.js';

/** How a table cell shows a default; `undefined` means the variable is required. */
export type DefaultText = (name: string, value: unknown) => string;

/** A default as a table cell shows it: the value in code, or `required` when there is none. */
export function envDefaultCell(value: unknown): string {
  return value === undefined ? 'required' : `\`${formatValue(value)}\``;
}

const plainDefault: DefaultText = (_name, value) => envDefaultCell(value);

/**
 * A schema as a Markdown table, one row per variable: name, type, default and meaning, as
 * `.env.example` states them, for the reference pages (`npm run docs:reference`). `defaultText`
 * lets a page say where a default comes from when the schema alone cannot.
 */
export function renderEnvTable(schema: EnvSchema, defaultText: DefaultText = plainDefault): string {
  const rows = Object.entries(schema).map(([name, variable]) => {
    const { description, type } = envDoc(name, variable);
    return `| \`${name}\` | ${cell(type)} | ${cell(defaultText(name, envDefault(variable)))} | ${cell(description)} |`;
  });
  return ['| variable | type | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The default of a variable as `.env.example` writes it (a list comma-separated). */
export function formatValue(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
