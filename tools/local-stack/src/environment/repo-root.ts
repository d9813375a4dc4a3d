import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What marks the repository root: both files, so a copy of dist/ with a package.json beside it does not. */
const MARKERS = ['package.json', 'tsconfig.json'];

/** The repository root: the nearest folder at or above `from` that holds `package.json` and `tsconfig.json`. */
export function findRepoRoot(from: string = process.cwd()): string {
  let dir = from;
  while (!MARKERS.every((marker) => existsSync(join(dir, marker)))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No folder with ${MARKERS.join(' and ')} at or above ${from}`);
    dir = parent;
  }
  return dir;
}
