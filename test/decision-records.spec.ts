import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

// docs/performance.md says what is true of the code now: how to measure, what bounds the figures,
// the current reference run. Why each lever is in the code, with the runs before and after it,
// is a decision record of docs/decisions/, one page each; raw measurements live with the bench.
// A dated heading on the page, a record grown into a notebook, or a results file dropped under
// docs/ would turn the docs back into a lab notebook.
const root = fileURLToPath(new URL('..', import.meta.url));

const PERFORMANCE_PAGE_MAX_LINES = 250;
const RECORD_MAX_LINES = 80;
/** A heading that names a day: `## Lingers (2 cores, 2026-12-06)`. */
const DATED_HEADING = /^#+ .*\d{4}-\d{2}-\d{2}/;
/** Files under docs/ that are documentation though not Markdown: generated from the code, not measured. */
const NOT_MEASUREMENTS = new Set(['docs/asyncapi.json']);
/** The sections a record holds, in this order. */
const RECORD_SECTIONS = ['## Context', '## Decision', '## Consequences', '## Figures', '## How to measure again'];
/** `0002-one-malloc-arena.md`: four digits, then the name in kebab-case. */
const RECORD_NAME = /^\d{4}-[a-z0-9]+(-[a-z0-9]+)*\.md$/;

const read = (path: string) => readFileSync(join(root, path), 'utf8');
const lineCount = (text: string) => text.trimEnd().split('\n').length;

function filesUnder(directory: string): string[] {
  return readdirSync(join(root, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** The headings of `markdown` that name a day, outside fenced code blocks. */
function datedHeadings(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return !fenced && DATED_HEADING.test(line);
  });
}

/** What is wrong with one record: too long, a section missing or out of order. */
function recordProblems(name: string, markdown: string): string[] {
  const problems: string[] = [];
  if (!RECORD_NAME.test(name)) problems.push(`${name}: not named NNNN-kebab-case.md`);
  if (lineCount(markdown) > RECORD_MAX_LINES) problems.push(`${name}: ${lineCount(markdown)} lines, at most ${RECORD_MAX_LINES}`);
  const lines = markdown.split('\n');
  // A heading may say more after its name (`## Figures (2 cores, before and after)`).
  const positions = RECORD_SECTIONS.map((section) => lines.findIndex((line) => line === section || line.startsWith(`${section} `)));
  RECORD_SECTIONS.forEach((section, index) => {
    if (positions[index] < 0) problems.push(`${name}: no "${section}" section`);
  });
  const found = positions.filter((position) => position >= 0);
  if (found.some((position, index) => index > 0 && position < found[index - 1])) problems.push(`${name}: sections out of order`);
  return problems;
}

const records = readdirSync(join(root, 'docs/decisions')).filter((name) => name !== 'README.md');

describe('the performance page and the decision records', () => {
  it(`when docs/performance.md is read, then it is at most ${PERFORMANCE_PAGE_MAX_LINES} lines and no heading is dated`, () => {
    const page = read('docs/performance.md');
    expect(lineCount(page)).toBeLessThanOrEqual(PERFORMANCE_PAGE_MAX_LINES);
    expect(datedHeadings(page)).toEqual([]);
  });

  it('when docs/ is listed, then it holds no raw measurement: every file is a page, or a document generated from the code', () => {
    expect(filesUnder('docs').filter((path) => !path.endsWith('.md') && !NOT_MEASUREMENTS.has(path))).toEqual([]);
  });

  it(`when the decision records are read, then each is at most ${RECORD_MAX_LINES} lines with context, decision, consequences, figures and how to measure again`, () => {
    expect(records.length).toBeGreaterThanOrEqual(10);
    expect(records.flatMap((name) => recordProblems(name, read(`docs/decisions/${name}`)))).toEqual([]);
  });

  it('when the index of docs/decisions is read, then it links every record and each lever tried and not adopted is one line', () => {
    const index = read('docs/decisions/README.md');
    const linked = new Set([...index.matchAll(/\]\((\d{4}-[^)#]+\.md)\)/g)].map(([, target]) => target));
    expect(records.filter((name) => !linked.has(name))).toEqual([]);
    const rejected = index.slice(index.indexOf('## Tried and not adopted')).split('\n');
    expect(rejected.filter((line) => line.startsWith('- ')).length).toBeGreaterThanOrEqual(5);
    // One line each: an entry never wraps onto an indented continuation line.
    expect(rejected.filter((line) => /^\s+\S/.test(line))).toEqual([]);
  });

  it('when a record or the page is malformed, then the checks name what is wrong (they have something to find)', () => {
    expect(datedHeadings('# Performance\n## Lingers (2 cores, 2026-12-06)\n```\n# 2026-12-06 in a fence\n```')).toEqual([
      '## Lingers (2 cores, 2026-12-06)',
    ]);
    const long = ['# 0099. Long', ...RECORD_SECTIONS.slice(0, 4), ...Array.from({ length: RECORD_MAX_LINES }, () => 'x')].join('\n');
    expect(recordProblems('0099-long.md', long)).toEqual([
      `0099-long.md: ${RECORD_MAX_LINES + 5} lines, at most ${RECORD_MAX_LINES}`,
      '0099-long.md: no "## How to measure again" section',
    ]);
    expect(recordProblems('Notes.md', '## Decision\n## Context\n## Consequences\n## Figures\n## How to measure again')).toEqual([
      'Notes.md: not named NNNN-kebab-case.md',
      'Notes.md: sections out of order',
    ]);
  });
});
