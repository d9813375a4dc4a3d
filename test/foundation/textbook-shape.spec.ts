import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';

/**
 * Each pattern's lesson stays readable in one sitting: the files the README's "Start reading here"
 * table lists as "read first" for a pattern total at most {@link READ_FIRST_MAX_LINES} lines, and no
 * runtime file of a pattern library grows past {@link PATTERN_FILE_MAX_LINES}, so tuning lands in a
 * named layer beside the core instead of inside it.
 */
const root = new URL('../..', import.meta.url).pathname;
const READ_FIRST_MAX_LINES = 400;
const PATTERN_FILE_MAX_LINES = 250;
const patterns = ['outbox', 'inbox', 'commands'] as const;

const lineCount = (path: string) => readFileSync(path, 'utf8').replace(/\n$/, '').split('\n').length;

/** The table rows of the README section `heading`, each as its cells. */
function sectionTableRows(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

/** The relative link targets of a markdown cell, anchors dropped. */
function linkTargets(cell: string): string[] {
  return [...cell.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]).filter((target) => !/^[a-z]+:/.test(target));
}

/** The "read first" files of each pattern library, from the README's table. */
function readFirstFiles(readme: string): Map<string, string[]> {
  const [header, ...rows] = sectionTableRows(readme, '## Start reading here');
  const column = header?.findIndex((cell) => /read first/i.test(cell)) ?? -1;
  const result = new Map<string, string[]>();
  if (column < 0) return result;
  for (const row of rows) {
    const library = /libs\/([a-z-]+)/.exec(row[0] ?? '')?.[1];
    if (library) result.set(library, linkTargets(row[column] ?? ''));
  }
  return result;
}

function runtimeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return runtimeFiles(path);
    return path.endsWith('.ts') && !/spec\.ts$/.test(path) ? [path] : [];
  });
}

describe('the textbook shape of the pattern libraries', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const readFirst = readFirstFiles(readme);

  it.each(patterns)(
    'when a learner opens the README\'s "read first" files of %s, then they exist and total at most 400 lines',
    (pattern) => {
      const files = readFirst.get(pattern) ?? [];
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(join(root, file)) ? file : `missing: ${file}`).toBe(file);
      const lines = files.reduce((sum, file) => sum + lineCount(join(root, file)), 0);
      expect(lines).toBeLessThanOrEqual(READ_FIRST_MAX_LINES);
    },
  );

  it.each(patterns)('when any runtime file of libs/%s is measured, then none exceeds 250 lines', (pattern) => {
    const tooLong = runtimeFiles(join(root, 'libs', pattern, 'src'))
      .map((path) => ({ path: path.slice(root.length), lines: lineCount(path) }))
      .filter(({ lines }) => lines > PATTERN_FILE_MAX_LINES);
    expect(tooLong).toEqual([]);
  });

  it("when the read-first table is parsed, then a row's links are its files and a missing column yields nothing", () => {
    const table = [
      '## Start reading here',
      '| library | read first |',
      '|---|---|',
      '| [`libs/outbox`](libs/outbox/src) | [`a.ts`](libs/outbox/src/a.ts) (why), [`b.ts`](libs/outbox/src/b.ts#L3) |',
      '## Next',
      '| [`libs/inbox`](libs/inbox/src) | [`c.ts`](libs/inbox/src/c.ts) |',
    ].join('\n');
    expect([...readFirstFiles(`\n${table}\n`)]).toEqual([['outbox', ['libs/outbox/src/a.ts', 'libs/outbox/src/b.ts']]]);
    expect(readFirstFiles('\n## Start reading here\n| library | page |\n|---|---|\n| [x](libs/outbox/src) | y |\n').size).toBe(0);
  });
});
