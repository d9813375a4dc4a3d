import { formatValue } from './env-table.js';
import { envDefault, envDoc, type EnvSchema } from './env-variable.js';

/** Renders a schema as `.env.example` lines: a comment with type, default and meaning, then `NAME=default`. */
export function renderEnvExample(title: string, schema: EnvSchema): string {
  const lines = [`# --- ${title} ---`];
  for (const [name, variable] of Object.entries(schema)) {
    const { description, type } = envDoc(name, variable);
    const value = envDefault(variable);
    const defaultText = value === undefined ? 'required' : `default ${formatValue(value)}`;
    lines.push(`# ${description} [${type}; ${defaultText}]`);
    lines.push(`${name}=${value === undefined ? '' : quoteForShell(formatValue(value))}`);
  }
  return lines.join('\n');
}

/** Quotes values with spaces or shell characters, so the file can also be `source`d. */
function quoteForShell(text: string): string {
  return /^[A-Za-z0-9_.,:/@+-]*$/.test(text) ? text : `"${text.replace(/(["\\$`])/g, '\\$1')}"`;
}
