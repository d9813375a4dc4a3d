// `npm run docs:reference`: rewrites every page generated from the code (the service pages' tables,
// docs/configuration.md's option tables, the ACL table, docs/asyncapi.json and .env.example).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot, parseCommandLine } from '@tools/local-stack';
import { committedPage, referencePages } from './reference/reference-pages.js';

parseCommandLine({
  name: 'docs:reference',
  usage: 'npm run docs:reference --',
  summary:
    'Rewrites every page generated from the code (docs/configuration.md, the service pages, the ACL table, docs/asyncapi.json, .env.example).',
  flags: {},
});

for (const page of referencePages()) {
  const before = committedPage(page.path);
  const after = await page.render(before);
  if (after !== before) writeFileSync(join(findRepoRoot(), page.path), after);
  console.log(`[docs:reference] ${after === before ? 'current' : 'wrote'} ${page.path}`);
}
