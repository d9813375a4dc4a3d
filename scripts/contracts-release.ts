// `npm run contracts:release`: records the current contracts as the released ones, in
// contracts/released/asyncapi.json. Run it when a release ships (its consumers are then in
// production): from then on test/contracts/contract-evolution.spec.ts fails on any change that a
// consumer of this release, or a record it wrote, would not survive. Never run it to silence that
// test: the break is still there for whoever runs the release (docs/contracts.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot, parseCommandLine } from '@tools/local-stack';
import { renderAsyncApiDocument } from './asyncapi-document.js';
parseCommandLine({
  name: 'contracts:release',
  usage: 'npm run contracts:release --',
  summary: 'Records the current contracts as the released ones (contracts/released/asyncapi.json); run it when a release ships.',
  flags: {},
});

/** Where the released document is kept, relative to the repository root (the test reads it there). */
const RELEASED_ASYNCAPI_PATH = 'contracts/released/asyncapi.json';

const target = join(findRepoRoot(), RELEASED_ASYNCAPI_PATH);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderAsyncApiDocument());
console.log(`[contracts:release] wrote ${target}`);
