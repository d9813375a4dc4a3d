import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { headingAnchors, markdownReferences } from './support/markdown-links.js';
import { documentationPages } from './support/documentation-pages.js';

// The README's tables send readers to the test that proves each claim; a renamed or deleted test
// file would leave a claim that points at nothing. Every relative link and every repository path in
// a code span of README.md and docs/**/*.md must resolve, and a link's #anchor
// (to another page or to its own) must name a heading.
const root = fileURLToPath(new URL('..', import.meta.url));
const pages = documentationPages(root);

/** The README is the front door: what it is, how to run it, how it works, where to read next. */
const README_MAX_LINES = 300;
/** Read in minutes: the prose of the front door, code blocks (the diagram, the walkthrough, the demo) apart. */
const README_MAX_WORDS = 1500;

/** The words of `markdown` outside fenced code blocks, split on whitespace (a table's cells and links count). */
function proseWords(markdown: string): number {
  let fenced = false;
  let words = 0;
  for (const text of markdown.split('\n')) {
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) words += text.split(/\s+/).filter(Boolean).length;
  }
  return words;
}

/** Problems with `page`'s references: each names the line and the target that does not resolve. */
function brokenReferences(
  page: string,
  markdown: string,
  fileExists: (path: string) => boolean,
  anchorsOf: (path: string) => Set<string>,
): string[] {
  const problems: string[] = [];
  for (const { line, target, kind } of markdownReferences(markdown)) {
    const [path, anchor] = target.split('#');
    // Links are relative to the page (a bare #anchor is the page itself); code spans name paths from
    // the repository root.
    const resolved = kind === 'link' ? (path === '' ? page : join(dirname(page), decodeURIComponent(path))) : path;
    if (!fileExists(resolved)) {
      problems.push(`${page}:${line}: ${target} (${resolved} does not exist)`);
      continue;
    }
    if (kind !== 'link' || !anchor || !resolved.endsWith('.md')) continue;
    const anchors = path === '' ? headingAnchors(markdown) : anchorsOf(resolved);
    if (!anchors.has(anchor)) problems.push(`${page}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
  }
  return problems;
}

const repoFileExists = (path: string) => existsSync(join(root, path));
const repoAnchors = (path: string) => headingAnchors(readFileSync(join(root, path), 'utf8'));

describe('links in README.md and docs/**/*.md', () => {
  for (const page of pages) {
    it(`when ${page} links to a file or names a repository path, then it exists`, () => {
      const markdown = readFileSync(join(root, page), 'utf8');
      expect(brokenReferences(page, markdown, repoFileExists, repoAnchors)).toEqual([]);
    });
  }

  it('when the guarantees page is read, then its tables do link to test files (the check above has something to check)', () => {
    const isTest = ({ target }: { target: string }) => /\.(e2e-|int-)?spec\.ts$/.test(target);
    const guarantees = readFileSync(join(root, 'docs/guarantees.md'), 'utf8');
    const crashWindows = guarantees.slice(guarantees.indexOf('## The crash windows'), guarantees.indexOf('## The claims and their tests'));
    // The crash-window table (its count checked by doc-claims.spec.ts); the ledger of every claim on the same page.
    expect(markdownReferences(crashWindows).filter(isTest).length).toBeGreaterThanOrEqual(11);
    expect(markdownReferences(guarantees).filter(isTest).length).toBeGreaterThanOrEqual(40);
    expect(pages).toEqual(expect.arrayContaining(['docs/guarantees.md', 'docs/operations.md']));
  });

  it(`when the README is read, then it stays a front door: under ${README_MAX_LINES} lines, deep material on docs/ pages`, () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThan(README_MAX_LINES);
  });

  it(`when the README's prose is counted, then it is at most ${README_MAX_WORDS} words outside code blocks`, () => {
    expect(proseWords(readFileSync(join(root, 'README.md'), 'utf8'))).toBeLessThanOrEqual(README_MAX_WORDS);
  });

  it('when words are counted, then code blocks are left out and table cells and links count', () => {
    expect(proseWords(['# Two words', '```console', '$ npm start and more words', '```', '| a | [b c](d.md) |'].join('\n'))).toBe(9);
  });

  it('when a table row links to a test file that does not exist, then the check reports the page, line and path', () => {
    const markdown = [
      '| claim | test |',
      '|---|---|',
      '| kept | [`redelivery`](test/inbox/redelivery.e2e-spec.ts) |',
      '| gone | [`renamed`](test/inbox/renamed-away.e2e-spec.ts), `test/inbox/also-gone.e2e-spec.ts` |',
      'See [the questions](docs/questions.md#no-such-heading), [a site](https://example.com) and [here](#top).',
      '# Top',
      'And [nowhere on this page](#no-such-section).',
      '```',
      '[in a fence](test/not-a-reference.ts)',
      '```',
    ].join('\n');
    expect(brokenReferences('README.md', markdown, repoFileExists, repoAnchors)).toEqual([
      'README.md:4: test/inbox/renamed-away.e2e-spec.ts (test/inbox/renamed-away.e2e-spec.ts does not exist)',
      'README.md:4: test/inbox/also-gone.e2e-spec.ts (test/inbox/also-gone.e2e-spec.ts does not exist)',
      'README.md:5: docs/questions.md#no-such-heading (no heading #no-such-heading in docs/questions.md)',
      'README.md:7: #no-such-section (no heading #no-such-section in README.md)',
    ]);
  });

  it('when headings repeat or carry punctuation, then anchors follow GitHub: lower case, punctuation dropped, -1 for a repeat', () => {
    expect([...headingAnchors('# Guarantees and the tests that prove them\n## 1. Why not publish `after`?\n## Notes\n## Notes')]).toEqual([
      'guarantees-and-the-tests-that-prove-them',
      '1-why-not-publish-after',
      'notes',
      'notes-1',
    ]);
  });
});
