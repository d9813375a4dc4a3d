import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';

/**
 * The ids the apps mint key b-trees (orders, outbox, every inbox, reservations, commands), so they
 * come from `timeOrderedUuid()`: a `randomUUID()` lands anywhere in its index and makes each insert
 * dirty a page of its own (time-ordered-uuid.ts says what that costs as the table grows). A random
 * value that keys no index is allowed here, with the reason.
 */
const root = new URL('../..', import.meta.url).pathname;
const RANDOM_ALLOWED: Record<string, string> = {
  'libs/commands/src/dispatch/command.dispatcher.ts': 'the claim id is a fencing token stored beside the command, never an index key',
};

function runtimeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ['node_modules', 'dist'].includes(name) ? [] : runtimeFiles(path);
    return path.endsWith('.ts') && !/spec\.ts$/.test(path) ? [path] : [];
  });
}

/** `text` without its comments, which may name what the code must not call. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** Files of `files` that mint a random UUID (`randomUUID(` or `gen_random_uuid(` in a statement they run) and are not allowed to. */
function mintingRandomIds(files: { path: string; text: string }[]): string[] {
  return files
    .filter(({ text }) => /\brandomUUID\(|gen_random_uuid\(\)/.test(withoutComments(text)))
    .map(({ path }) => path)
    .filter((path) => !(path in RANDOM_ALLOWED) && !/\/migrations\/\d{13}-/.test(path));
}

describe('ids that key an index are time-ordered', () => {
  const files = [...runtimeFiles(join(root, 'apps')), ...runtimeFiles(join(root, 'libs'))].map((path) => ({
    path: relative(root, path),
    text: readFileSync(path, 'utf8'),
  }));

  it('when the apps and libraries are scanned, then none mints a random UUID except where the reason is stated', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(mintingRandomIds(files)).toEqual([]);
  });

  it('when a random UUID is planted in runtime code, then the check names the file', () => {
    const planted = [
      { path: 'apps/orders/src/orders/new-thing.service.ts', text: 'const id = randomUUID();' },
      { path: 'libs/outbox/src/raw.ts', text: "await query('INSERT INTO t (id) VALUES (gen_random_uuid())')" },
      { path: 'libs/commands/src/dispatch/command.dispatcher.ts', text: 'const claimId = randomUUID();' },
      { path: 'libs/database/src/explained.ts', text: '// not a randomUUID() here\n/* nor gen_random_uuid() */ const id = 1;' },
    ];
    expect(mintingRandomIds(planted)).toEqual(['apps/orders/src/orders/new-thing.service.ts', 'libs/outbox/src/raw.ts']);
  });

  it('when an allowed file no longer mints a random UUID, then its exception is removed too', () => {
    for (const path of Object.keys(RANDOM_ALLOWED)) expect(files.find((file) => file.path === path)?.text).toMatch(/\brandomUUID\(/);
  });
});
