// The "other variables" part of docs/configuration.md: what an app declares outside the library
// tables (its port, its partner's commands, its load shedding) and what the tooling reads, each
// variable once, so that every declared variable is either in `.env.example` or in the page.
import { renderEnvTable, type EnvSchema } from '@libs/config';
import { deployerVariables } from '../deployer-variables.js';
import { envSections } from '../env-sections.js';
import { libraryVariables } from './library-options.js';

/** One heading and table per app, then per part of the tooling, of the variables no earlier table shows. */
export function renderOtherVariables(): string {
  const shown = new Set([...libraryVariables(), ...deployerVariables]);
  const parts: string[] = [];
  for (const section of envSections()) {
    const fresh = Object.keys(section.schema).filter((name) => !shown.has(name));
    fresh.forEach((name) => shown.add(name));
    if (fresh.length === 0) continue;
    const schema: EnvSchema = Object.fromEntries(fresh.map((name) => [name, section.schema[name]]));
    parts.push(`### ${section.app ? `${section.title}: its own` : section.title}`, '', renderEnvTable(schema), '');
  }
  return parts.join('\n').trimEnd();
}
