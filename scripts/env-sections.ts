import type { EnvSchema } from '@libs/config';
import { services, toolingEnvSections } from '@tools/local-stack';
import { benchEnv } from '../bench/bench.env.js';
import { kafkaAclsEnv } from './kafka-acls.env.js';

/** The variables one process (an app) or one part of the tooling reads. */
export interface EnvSection {
  readonly title: string;
  readonly schema: EnvSchema;
  /** An app's section: the variables its own config schema declares. */
  readonly app: boolean;
}

/**
 * Every environment schema of the repository: each app's, then the tooling's (local stack,
 * compose, tests, the scripts and the benchmarks). A variable declared in any of them is
 * documented in `.env.example` or docs/configuration.md, never both (test/env-example.spec.ts).
 */
export function envSections(): EnvSection[] {
  return [
    ...services.map((service) => ({ title: service.name, schema: service.schema, app: true })),
    ...toolingEnvSections.map((section) => ({ ...section, app: false })),
    { title: 'tooling: npm run kafka:acls', schema: kafkaAclsEnv, app: false },
    { title: 'tooling: npm run bench', schema: benchEnv, app: false },
  ];
}

/** Every declared variable name, in the order the sections declare them. */
export function declaredVariables(): string[] {
  return [...new Set(envSections().flatMap((section) => Object.keys(section.schema)))];
}
