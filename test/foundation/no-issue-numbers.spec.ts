import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot } from '@tools/local-stack';

const root = findRepoRoot();
const SOURCE_DIRECTORIES = ['apps', 'libs', 'scripts', 'tools', 'test', 'bench', 'docs'];

function filesUnder(directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'results' ? [] : filesUnder(path);
    return /\.(ts|mjs|md)$/.test(entry.name) ? [path] : [];
  });
}

describe('comments, test titles and docs say the reason, never a bare issue number', () => {
  it('when the tree is read, then no line cites a bare issue number', () => {
    const found = [...SOURCE_DIRECTORIES.flatMap((directory) => filesUnder(directory)), 'README.md'].flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (/\bissues? [0-9]+/i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
