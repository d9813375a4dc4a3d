import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

/** README.md and every page under docs/, as repository paths with `/`, docs sorted: what a reader of a clone reads. */
export function documentationPages(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name.split(sep).join('/')}`)
      .sort(),
  ];
}
