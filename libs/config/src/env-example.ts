import type { EnvSchema } from './env-schema.js';

/** Renders a schema as `.env.example` lines: a comment with type, default and meaning, then `NAME=default`. */
export function renderEnvExample(title: string, schema: EnvSchema): string {
  const lines = [`# --- ${title} ---`];
  for (const [name, spec] of Object.entries(schema)) {
    const defaultText = spec.default === undefined ? 'required' : `default ${formatValue(spec.default)}`;
    lines.push(`# ${spec.description} [${spec.type}; ${defaultText}]`);
    lines.push(`${name}=${spec.default === undefined ? '' : formatValue(spec.default)}`);
  }
  return lines.join('\n');
}

function formatValue(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}
