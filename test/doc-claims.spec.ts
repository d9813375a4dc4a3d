import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { commandsEnv } from '@libs/commands';
import type { EnvSchema } from '@libs/config';
import { SAMPLED_STATISTICS_TARGET } from '@libs/database';
import { messageSigningEnv, messageVerificationEnv } from '@libs/envelope';
import { inboxEnv } from '@libs/inbox';
import { outboxEnv } from '@libs/outbox';
import { documentationPages } from './support/documentation-pages.js';
import { declaredVariables } from '../scripts/env-sections.js';

// What the docs say that the code can state: the kinds of contradiction a read of the docs against
// the code found (a settings table missing a variable, a count that changed, an option no code
// declares, the design's name for a component tied to no class), each caught here if it comes back.
const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pages = documentationPages(root);

/** The text of `page` from the heading `heading` to the next heading of the same or a higher level. */
function section(page: string, heading: string): string {
  const lines = read(page).split('\n');
  const start = lines.findIndex((line) => line.replace(/^#+\s*/, '') === heading && line.startsWith('#'));
  if (start < 0) throw new Error(`${page} has no heading "${heading}"`);
  const level = /^#+/.exec(lines[start])![0].length;
  const end = lines.findIndex((line, index) => index > start && /^#+\s/.test(line) && /^#+/.exec(line)![0].length <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** A library's own variables: the signing variables it spreads in are documented on the security pages. */
const ownVariables = (schema: EnvSchema) =>
  Object.keys(schema).filter((name) => !(name in messageSigningEnv) && !(name in messageVerificationEnv));

const settingsTables: { library: string; schema: EnvSchema; page: string; heading: string }[] = [
  { library: 'outbox', schema: outboxEnv, page: 'docs/outbox.md', heading: 'Configuration' },
  { library: 'inbox', schema: inboxEnv, page: 'docs/inbox-and-side-effects.md', heading: 'Inbox settings' },
  {
    library: 'commands (inventory → loyalty)',
    schema: commandsEnv('LOYALTY', 'the loyalty service'),
    page: 'docs/inbox-and-side-effects.md',
    heading: 'Loyalty settings (inventory side)',
  },
];

/** Identifiers the docs may name without code declaring them, and why. */
const NAMED_BUT_NOT_DECLARED: Record<string, string> = {
  SHIPPING_PORT: "docs/extending.md's example service, which exists once the reader adds it",
  SHIPPER_BASE_URL: "docs/extending.md's example partner",
  shippingConsumes: "docs/extending.md's example service",
  priceCents: 'an unknown field the API refuses, named as an example of one',
};

/** The source the docs describe (not the docs themselves): what a name in a code span must be found in. */
function sourceText(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = `${dir}/${name}`;
      // This file names what must not be found (its own examples).
      if (name === 'node_modules' || name === 'dist' || path === 'test/doc-claims.spec.ts') continue;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (/\.(ts|mjs|js|sh|ya?ml|json)$/.test(name)) files.push(path);
    }
  };
  for (const dir of ['apps', 'libs', 'scripts', 'tools', 'test', 'bench', 'infra', 'deploy', 'observability']) walk(dir);
  files.push('.env.example', 'docker-compose.yml', 'package.json', 'nest-cli.json', 'tsconfig.json');
  // Names a schema builds from a prefix (`commandsEnv('LOYALTY', ...)`) occur in no file as written.
  return [...files.map(read), ...declaredVariables()].join('\n');
}

/** Names in code spans (outside fences) that look like code: camelCase identifiers and SCREAMING_SNAKE variables. */
function namedIdentifiers(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].flatMap(([, span]) =>
    (span.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).filter(
      (word) => /^[a-z]+[A-Z][A-Za-z0-9]*$/.test(word) || /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(word),
    ),
  );
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

describe('what the docs say that the code states', () => {
  for (const { library, schema, page, heading } of settingsTables) {
    it(`when ${page} "${heading}" tables the ${library} settings, then it names every variable the ${library} schema declares`, () => {
      const text = section(page, heading);
      expect(ownVariables(schema).filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
    });
  }

  it('when a page names an option or a variable in a code span, then some code declares or uses it', () => {
    const source = sourceText();
    const unknown = pages.flatMap((page) =>
      [...new Set(namedIdentifiers(read(page)))]
        .filter((name) => !(name in NAMED_BUT_NOT_DECLARED) && !source.includes(name))
        .map((name) => `${page}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('when an identifier no code has is named, then the check sees it (it has something to find)', () => {
    expect(
      namedIdentifiers('a handler may name `batchLocks`, see `INBOX_BATCH_SIZE=1` and `inbox_messages`\n```ts\nnotProse\n```'),
    ).toEqual(['batchLocks', 'INBOX_BATCH_SIZE']);
  });

  it("when a page says how many rows a growing table is analysed from, then it is 300 times the target sampleStatistics sets (Postgres' sample per unit of target)", () => {
    const claims = pages.flatMap((page) =>
      [...read(page).matchAll(/analysed\s+from\s+a\s+sample\s+of\s+([\d,]+)\s+rows/g)].map(([, rows]) => `${page}: ${rows}`),
    );
    expect(claims.length).toBeGreaterThanOrEqual(2);
    const stated = (300 * SAMPLED_STATISTICS_TARGET).toLocaleString('en-US');
    expect(claims.filter((claim) => !claim.endsWith(`: ${stated}`))).toEqual([]);
  });

  it('when the README counts the crash windows, then the number is the rows of the crash-window table of docs/guarantees.md', () => {
    const guarantees = read('docs/guarantees.md');
    const rows = guarantees.slice(guarantees.indexOf('| crash window | failpoint |')).split('\n').slice(2);
    const count = rows.findIndex((row) => !row.startsWith('|'));
    const counts = [...read('README.md').matchAll(/\b([a-z]+|\d+) crash windows\b/gi)].map(([, word]) => word.toLowerCase());
    expect(counts.length).toBeGreaterThanOrEqual(1);
    expect(counts.map((word) => (/^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word)))).toEqual(counts.map(() => count));
  });

  it("when README.md and docs/inbox.md speak of the design's inbox interceptor, then they say the class that plays it is InboxConsumer, and why not a NestInterceptor", () => {
    const claims = (page: string) =>
      read(page)
        .split(/\n\s*\n|\n(?=\d+\. |- |\| )/)
        .filter((paragraph) => /inbox interceptor/i.test(paragraph));
    for (const page of ['README.md', 'docs/inbox.md']) {
      expect(claims(page).length).toBeGreaterThanOrEqual(1);
      for (const paragraph of claims(page)) expect(paragraph).toContain('`InboxConsumer`');
    }
    expect(claims('docs/inbox.md').join('\n')).toContain('NestInterceptor');
  });
});
