import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { documentationPages } from './support/documentation-pages.js';

// A page that sends the reader to `../../libs/outbox/src/outbox.writer.ts#L43-L66` promises those
// lines show what the link names. Code moves; a stale range would show the reader something else
// without a word. So every line-anchored link of README.md and docs/**/*.md must name an existing
// file with those lines, and when its text names the code (`` [`addMany`](...) ``), that name must
// be within the range: a moved line breaks the build, not the reader. Each problem says where the
// name is now, so re-pointing an anchor is a copy of the line numbers.
//
// The guided tour (docs/tour/) is also held to its shape: each chapter starts from a question,
// stays short, links few exact ranges, and ends with an experiment in a console block (which
// test/e2e/docs-examples.e2e-spec.ts runs).
const root = fileURLToPath(new URL('..', import.meta.url));

const CHAPTER_MAX_LINES = 150;
/** Few, so that re-pointing them after a restructure stays a small job. */
const CHAPTER_MAX_ANCHORS = 6;

interface LineAnchor {
  page: string;
  /** 1-based line of the link on its page. */
  line: number;
  /** The link's text (`` `addMany` `` included). */
  text: string;
  /** The target file, from the repository root. */
  path: string;
  first: number;
  last: number;
}

/** The links of `markdown` (on `page`) that point at a line or a range of a file, outside fenced code. */
function lineAnchors(page: string, markdown: string): LineAnchor[] {
  const anchors: LineAnchor[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const [, label, target, first, last] of text.matchAll(/\[([^\]]*)\]\(([^)#\s]+)#L(\d+)(?:-L(\d+))?\)/g)) {
      anchors.push({
        page,
        line: index + 1,
        text: label,
        path: join(dirname(page), decodeURIComponent(target)),
        first: Number(first),
        last: Number(last ?? first),
      });
    }
  });
  return anchors;
}

/** The code a link's text names: its code span (`` `OutboxWriter.addMany` `` names `addMany`), or none. */
function namedCode(text: string): string | undefined {
  const span = /`([^`]+)`/.exec(text)?.[1];
  if (!span) return undefined;
  return /^[\w$]+(\.[\w$]+)+$/.test(span) ? span.split('.').at(-1) : span;
}

/** What is wrong with `anchor` against the file's `lines` (undefined: the file does not exist). */
function anchorProblem(anchor: LineAnchor, lines: readonly string[] | undefined): string | undefined {
  const where = `${anchor.page}:${anchor.line}: ${anchor.path}#L${anchor.first}-L${anchor.last}`;
  if (!lines) return `${where}: no such file`;
  if (anchor.first < 1 || anchor.last < anchor.first) return `${where}: not a range of lines`;
  if (anchor.last > lines.length) return `${where}: the file has ${lines.length} lines`;
  const name = namedCode(anchor.text);
  if (!name) return undefined;
  if (lines.slice(anchor.first - 1, anchor.last).some((line) => line.includes(name))) return undefined;
  const now = lines.flatMap((line, index) => (line.includes(name) ? [index + 1] : []));
  return `${where}: "${name}" is not in those lines (${now.length > 0 ? `it is on line ${now.join(', ')}` : 'nor anywhere in the file'})`;
}

function fileLines(path: string): string[] | undefined {
  const file = join(root, path);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n') : undefined;
}

const pages = documentationPages(root);
const chapters = readdirSync(join(root, 'docs/tour'))
  .filter((name) => /^\d{2}-.+\.md$/.test(name))
  .sort();

/** What keeps `markdown` (a tour chapter) from the tour's shape. */
function chapterProblems(name: string, markdown: string): string[] {
  const problems: string[] = [];
  const lines = markdown.trimEnd().split('\n');
  if (lines.length > CHAPTER_MAX_LINES) problems.push(`${name}: ${lines.length} lines, at most ${CHAPTER_MAX_LINES}`);
  const opening = markdown.split('\n\n')[1] ?? '';
  if (!/^# /.test(lines[0]) || !opening.includes('?'))
    problems.push(`${name}: does not start from a question (the paragraph after its title)`);
  const anchors = lineAnchors(`docs/tour/${name}`, markdown).length;
  if (anchors < 1 || anchors > CHAPTER_MAX_ANCHORS) problems.push(`${name}: ${anchors} line-anchored links, 1 to ${CHAPTER_MAX_ANCHORS}`);
  const experiment = markdown.lastIndexOf('\n## Experiment');
  const after = experiment < 0 ? '' : markdown.slice(experiment);
  if (!/\n```console\n\$ /.test(after)) problems.push(`${name}: does not end with an "## Experiment" section holding a console block`);
  else if (/\n## /.test(after.slice(1))) problems.push(`${name}: the experiment is not its last section`);
  return problems;
}

describe('line-anchored links in README.md and docs/**/*.md', () => {
  it('when a link points at lines of a file, then the file has them and they hold the code the link names', () => {
    const anchors = pages.flatMap((page) => lineAnchors(page, readFileSync(join(root, page), 'utf8')));
    expect(anchors.length).toBeGreaterThanOrEqual(chapters.length);
    expect(anchors.flatMap((anchor) => anchorProblem(anchor, fileLines(anchor.path)) ?? [])).toEqual([]);
  });

  it('when an anchor is stale, then the check names the page, the range and where the code is now', () => {
    const [anchor] = lineAnchors('docs/tour/x.md', 'See [`addMany`](../../libs/a.ts#L2-L3) and `not#L1`.');
    expect(anchor).toEqual({ page: 'docs/tour/x.md', line: 1, text: '`addMany`', path: 'libs/a.ts', first: 2, last: 3 });
    const file = ['one', 'two', 'three', 'async addMany() {'];
    expect(anchorProblem(anchor, file)).toBe('docs/tour/x.md:1: libs/a.ts#L2-L3: "addMany" is not in those lines (it is on line 4)');
    expect(anchorProblem({ ...anchor, last: 9 }, file)).toBe('docs/tour/x.md:1: libs/a.ts#L2-L9: the file has 4 lines');
    expect(anchorProblem(anchor, undefined)).toBe('docs/tour/x.md:1: libs/a.ts#L2-L3: no such file');
    expect(anchorProblem({ ...anchor, text: '`Writer.addMany`', first: 4, last: 4 }, file)).toBeUndefined();
    expect(anchorProblem({ ...anchor, text: 'the writer' }, file)).toBeUndefined();
  });
});

describe('the guided tour, docs/tour/', () => {
  it('when the tour is listed, then it has its seven chapters in the order a learner meets the ideas, each linked from its index', () => {
    expect(chapters).toEqual([
      '01-the-dual-write.md',
      '02-the-outbox.md',
      '03-the-relay.md',
      '04-the-inbox.md',
      '05-side-effects.md',
      '06-what-breaks-and-how-it-heals.md',
      '07-what-makes-it-fast.md',
    ]);
    const index = readFileSync(join(root, 'docs/tour/README.md'), 'utf8');
    const linked = [...index.matchAll(/\]\((\d{2}-[^)]+\.md)\)/g)].map(([, target]) => target);
    expect(linked).toEqual(chapters);
  });

  it(`when a chapter is read, then it starts from a question, is at most ${CHAPTER_MAX_LINES} lines, links 1 to ${CHAPTER_MAX_ANCHORS} exact ranges and ends with an experiment`, () => {
    expect(chapters.flatMap((name) => chapterProblems(name, readFileSync(join(root, 'docs/tour', name), 'utf8')))).toEqual([]);
  });

  it('when a chapter lacks its question or its experiment, then the check says which', () => {
    const chapter = ['# 9. Nothing', '', 'A statement.', '', '## Experiment: none', 'Read [`x`](../../a.ts#L1-L2).'].join('\n');
    expect(chapterProblems('09-nothing.md', chapter)).toEqual([
      '09-nothing.md: does not start from a question (the paragraph after its title)',
      '09-nothing.md: does not end with an "## Experiment" section holding a console block',
    ]);
  });
});
