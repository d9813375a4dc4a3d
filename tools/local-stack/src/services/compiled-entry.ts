import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot } from '../environment/repo-root.js';
import { builtEntry, type ServiceName } from './service-catalog.js';

/**
 * The absolute path of a service's compiled entry point: under `TEST_DIST_DIR` when set, else
 * `<repo>/dist`. Setting it to a private copy keeps a run safe from a concurrent
 * `node scripts/build.mjs`, which deletes `dist/` first (a copy needs `package.json` beside it and
 * `node_modules` reachable above it). Throws when the build has not produced it.
 */
export function compiledEntry(service: ServiceName, file: 'main' | 'migrate' | 'seed'): string {
  const root = process.env.TEST_DIST_DIR || join(findRepoRoot(), 'dist');
  const path = join(root, builtEntry(service, file));
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`node scripts/build.mjs\` first`);
  return path;
}
