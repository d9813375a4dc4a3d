import { renderEnvExample } from '@libs/config';
import { services, toolingEnvSections } from '@tools/local-stack';
import { benchEnv } from '../bench/bench.env.js';
import { kafkaAclsEnv } from './kafka-acls.env.js';

/** Where the rendered file lives, relative to the repository root. */
export const ENV_EXAMPLE_PATH = '.env.example';

/**
 * The full text of `.env.example`: one section per service, every variable of its schema with
 * type, default and meaning, then one per group of tooling variables. Generated, never edited by hand, so it cannot drift from the schemas
 * (test/env-example.spec.ts fails when the committed file differs from this).
 */
export function renderEnvExampleFile(): string {
  const header = [
    '# Environment of each service, generated from the config schemas by `npm run env:example`.',
    '# Do not edit by hand: test/env-example.spec.ts fails when this file and the schemas differ.',
    '# Each section is one process, then the "tooling:" sections (local stack, compose, tests, benchmarks);',
    '# shared variables (DATABASE_URL, ...) appear in every section',
    "# that reads them, with that service's own default. Empty value = required, no default.",
    '# The apps and the local tooling (npm start, npm run dev, npm run ops, ...) read `.env` in the',
    '# working directory when it exists; variables already set win over it. Put there only the lines',
    '# you change: one .env serves every process, so a value set there applies to each that reads it.',
  ].join('\n');
  const tooling = [
    ...toolingEnvSections,
    { title: 'tooling: npm run kafka:acls', schema: kafkaAclsEnv },
    { title: 'tooling: npm run bench', schema: benchEnv },
  ];
  const sections = [
    ...services.map((service) => renderEnvExample(service.name, service.schema)),
    ...tooling.map((section) => renderEnvExample(section.title, section.schema)),
  ];
  return `${[header, ...sections].join('\n\n')}\n`;
}
