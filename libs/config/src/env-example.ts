import type { EnvSchema } from './env-schema.js';

/** Renders a schema as `.env.example` lines: a comment with type, default and meaning, then `NAME=default`. */
export function renderEnvExample(title: string, schema: EnvSchema): string {
  const lines = [`# --- ${title} ---`];
  for (const [name, spec] of Object.entries(schema)) {
    const defaultText = spec.default === undefined ? 'required' : `default ${formatValue(spec.default)}`;
    lines.push(`# ${spec.description} [${spec.type}; ${defaultText}]`);
    lines.push(`${name}=${spec.default === undefined ? '' : quoteForShell(formatValue(spec.default))}`);
  }
  return lines.join('\n');
}

/** Quotes values with spaces or shell characters, so the file can also be `source`d. */
function quoteForShell(text: string): string {
  return /^[A-Za-z0-9_.,:/@+-]*$/.test(text) ? text : `"${text.replace(/(["\\$`])/g, '\\$1')}"`;
}

function formatValue(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}
