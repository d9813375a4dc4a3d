import { renderEnvExampleEntry } from '@libs/config';
import { DEPLOYER_GROUPS } from './deployer-variables.js';
import { envSections } from './env-sections.js';

/** Where the rendered file lives, relative to the repository root. */
export const ENV_EXAMPLE_PATH = '.env.example';

/**
 * The full text of `.env.example`: the variables a deployment sets ({@link DEPLOYER_GROUPS}), each
 * once, with type, default and meaning from its declarations. Generated, never edited by hand, so it
 * cannot drift from the schemas (test/env-example.spec.ts fails when the committed file differs).
 */
export function renderEnvExampleFile(): string {
  const sections = envSections();
  const header = [
    '# What a deployment sets, generated from the config schemas by `npm run env:example`.',
    '# Do not edit by hand: test/env-example.spec.ts fails when this file and the schemas differ.',
    '# Every other variable (tuning, tooling) is in docs/configuration.md, with type, default and cost.',
    '# Empty value = required, no default. A line starting with # and a name (#DATABASE_NAME=) has a',
    '# default per process: set it per process, not in a shared .env.',
    '# The apps and the local tooling (npm start, npm run dev, npm run ops, npm run demo, ...) read `.env`',
    '# in the working directory when it exists; variables already set win over it. Put there only the',
    '# lines you change: one .env serves every process, so a value set there applies to each that reads it.',
  ].join('\n');
  const groups = DEPLOYER_GROUPS.map((group) => {
    const lines = group.names.flatMap((name) => {
      const readers = sections.flatMap((section) =>
        name in section.schema ? [{ process: section.title.replace(/^tooling: /, ''), variable: section.schema[name] }] : [],
      );
      if (readers.length === 0)
        throw new Error(`.env.example: ${name} is listed in scripts/deployer-variables.ts but no schema declares it`);
      return renderEnvExampleEntry(name, readers);
    });
    return [`# --- ${group.title} ---`, ...lines].join('\n');
  });
  return `${[header, ...groups].join('\n\n')}\n`;
}
