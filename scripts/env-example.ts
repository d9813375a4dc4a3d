// `npm run env:example`: rewrites .env.example from the services' config schemas.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot, parseCommandLine } from '@tools/local-stack';
import { ENV_EXAMPLE_PATH, renderEnvExampleFile } from './env-example-file.js';
parseCommandLine({
  name: 'env:example',
  usage: 'npm run env:example --',
  summary: 'Rewrites .env.example from the env declarations of the services and the tooling.',
  flags: {},
});

const target = join(findRepoRoot(), ENV_EXAMPLE_PATH);
writeFileSync(target, renderEnvExampleFile());
console.log(`[env:example] wrote ${target}`);
