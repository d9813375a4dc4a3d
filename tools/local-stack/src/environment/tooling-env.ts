import type { EnvSchema } from '@libs/config';
import { failpointsEnv } from '@libs/failpoints';
import { devIssuerEnv } from '../auth/dev-issuer.env.js';
import { composeEnv } from '../compose/compose.env.js';
import { localSigningFileEnv } from '../envelope/local-signing.env.js';
import { kafkaLocalEnv } from '../kafka/kafka-local.env.js';
import { localDatabasesEnv } from '../postgres/local-databases.env.js';
import { postgresLocalEnv } from '../postgres/postgres-local.env.js';
import { testDistEnv } from '../services/test-dist.env.js';
import { testProjectEnv } from '../services/test-project.env.js';

/** One group of variables the tooling reads (not an app), as docs/configuration.md shows it. */
export interface ToolingEnvSection {
  readonly title: string;
  readonly schema: EnvSchema;
}

/**
 * The variables of the local tooling, each declared beside the code that reads it: the
 * configuration reference renders one "tooling" table per entry (scripts/env-sections.ts adds the
 * benchmarks' and the scripts' own), and test/env-example.spec.ts fails when a variable the
 * tooling reads is declared nowhere.
 */
export const toolingEnvSections: readonly ToolingEnvSection[] = [
  { title: 'tooling: development token issuer (npm start, npm run token, compose dev-issuer)', schema: devIssuerEnv },
  { title: 'tooling: local Kafka (scripts/kafka-local.sh, npm start, npm test)', schema: kafkaLocalEnv },
  {
    title: 'tooling: local Postgres and state files (npm start, npm test)',
    schema: { ...postgresLocalEnv, ...localDatabasesEnv, ...localSigningFileEnv },
  },
  { title: 'tooling: docker compose (docker-compose.yml, scripts/compose-smoke.sh)', schema: composeEnv },
  { title: 'tooling: tests (failpoints, compiled apps)', schema: { ...failpointsEnv, ...testDistEnv, ...testProjectEnv } },
];
