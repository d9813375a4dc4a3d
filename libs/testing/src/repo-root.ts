import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root: the nearest folder above `from` that holds `nest-cli.json`. */
export function findRepoRoot(from: string = process.cwd()): string {
  let dir = from;
  while (!existsSync(join(dir, 'nest-cli.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No nest-cli.json above ${from}`);
    dir = parent;
  }
  return dir;
}
