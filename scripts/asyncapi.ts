// `npm run asyncapi`: rewrites docs/asyncapi.json from libs/contracts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot, parseCommandLine } from '@tools/local-stack';
import { ASYNCAPI_PATH, renderAsyncApiDocument } from './asyncapi-document.js';
parseCommandLine({
  name: 'asyncapi',
  usage: 'npm run asyncapi --',
  summary: 'Rewrites docs/asyncapi.json from libs/contracts.',
  flags: {},
});

const target = join(findRepoRoot(), ASYNCAPI_PATH);
writeFileSync(target, renderAsyncApiDocument());
console.log(`[asyncapi] wrote ${target}`);
