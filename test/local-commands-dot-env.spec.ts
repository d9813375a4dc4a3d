import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { findRepoRoot } from '@tools/local-stack';

const root = findRepoRoot();

// A command of scripts/ that takes the local defaults (localEnvironment, localToolingEnv) acts on
// the stack `npm start` runs, so it must read the same `.env`: `npm run demo` did not, and with
// other ports in `.env` it drove somebody else's services on 3000-3002.
describe('the npm commands that act on the local stack', () => {
  const commands = readdirSync(join(root, 'scripts'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ name: `scripts/${name}`, text: readFileSync(join(root, 'scripts', name), 'utf8') }))
    .filter(({ text }) => /\blocal(Environment|ToolingEnv)\(/.test(text));

  it('when a command takes the local defaults, then it loads .env first, like npm start', () => {
    expect(commands.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['scripts/demo.ts', 'scripts/ops.ts', 'scripts/start-local.ts']),
    );
    expect(commands.filter(({ text }) => !/\bloadDotEnv\(\)/.test(text)).map(({ name }) => name)).toEqual([]);
  });
});
