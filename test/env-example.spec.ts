import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { findRepoRoot } from '@tools/local-stack';
import { DEPLOYER_VARIABLES_MAX } from '../scripts/deployer-variables.js';
import { ENV_EXAMPLE_PATH, renderEnvExampleFile } from '../scripts/env-example-file.js';
import { declaredVariables } from '../scripts/env-sections.js';

const CONFIGURATION_PATH = 'docs/configuration.md';

const root = findRepoRoot();

/**
 * Variables the tooling reads that no user sets: the shell's own, and those one of our processes
 * sets for a child it starts. Each says why; anything else read must be in .env.example.
 */
const NOT_SET_BY_USERS: Record<string, string> = {
  PATH: 'passed through to child processes',
  BASH_SOURCE: "bash's own",
  PORT: 'set by bench/place-order-http.bench.ts for the plain server it starts',
  BENCH_PLAIN_MODE: 'set by bench/place-order-http.bench.ts for the plain server it starts',
  BENCH_TOPIC: 'set by bench/place-order-http.bench.ts for the plain server it starts',
  KAFKAJS_NO_PARTITIONER_WARNING: 'set by the test and bench launchers to silence kafkajs',
};

function filesUnder(dir: string, extensions: RegExp): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return filesUnder(path, extensions);
    return extensions.test(name) && !/\.(int-|e2e-)?spec\.ts$/.test(name) ? [path] : [];
  });
}

/** Names the TypeScript and JavaScript of the tooling read: `process.env.X`, and `env.X` / `source.X` of an environment passed in. */
function readByCode(): Map<string, string> {
  const found = new Map<string, string>();
  const files = ['scripts', 'tools', 'test/setup', 'bench'].flatMap((dir) => filesUnder(dir, /\.(ts|mjs)$/));
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, name] of text.matchAll(/\b(?:process\.env|env|source)(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) found.set(name, file);
  }
  return found;
}

/** `${X` in docker-compose.yml (not `$${X}`, a literal for the container's shell) and in scripts/*.sh, less what a script assigns itself. */
function readByComposeAndShell(): Map<string, string> {
  const found = new Map<string, string>();
  const shells = readdirSync(join(root, 'scripts'))
    .filter((name) => name.endsWith('.sh'))
    .map((name) => `scripts/${name}`);
  for (const file of ['docker-compose.yml', ...shells]) {
    const text = readFileSync(join(root, file), 'utf8');
    const assigned = new Set([...text.matchAll(/^\s*(?:local\s+)?([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name));
    for (const [, name] of text.matchAll(/(?<!\$)\$\{([A-Z][A-Z0-9_]*)/g)) if (!assigned.has(name)) found.set(name, file);
  }
  return found;
}

/** Names `.env.example` assigns: `NAME=` lines, and `#NAME=` for a default that differs per process. */
function namesInEnvExample(text: string): string[] {
  return [...text.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name);
}

/** Names the configuration page documents: the first cell of each table row. */
function namesInReference(text: string): string[] {
  return [...text.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map(([, name]) => name);
}

/** The names that occur more than once in `names`. */
function repeated(names: readonly string[]): string[] {
  return names.filter((name, i) => names.indexOf(name) !== i);
}

describe('.env.example and docs/configuration.md', () => {
  const example = namesInEnvExample(readFileSync(join(root, ENV_EXAMPLE_PATH), 'utf8'));
  const reference = namesInReference(readFileSync(join(root, CONFIGURATION_PATH), 'utf8'));

  it(`when a deployer reads .env.example, then it lists at most ${DEPLOYER_VARIABLES_MAX} variables, each once`, () => {
    expect(example.length).toBeLessThanOrEqual(DEPLOYER_VARIABLES_MAX);
    expect(repeated(example)).toEqual([]);
  });

  it('when a variable is declared anywhere, then it is in .env.example or docs/configuration.md', () => {
    const documented = new Set([...example, ...reference]);
    expect(declaredVariables().filter((name) => !documented.has(name))).toEqual([]);
  });

  it('when a variable is in .env.example, then docs/configuration.md has no row for it (and none twice)', () => {
    expect(reference.filter((name) => example.includes(name))).toEqual([]);
    expect(repeated(reference)).toEqual([]);
  });
});

describe('.env.example', () => {
  const committed = readFileSync(join(root, ENV_EXAMPLE_PATH), 'utf8');
  const listed = new Set([...namesInEnvExample(committed), ...namesInReference(readFileSync(join(root, CONFIGURATION_PATH), 'utf8'))]);

  it('when a config schema changes, then .env.example is regenerated with `npm run env:example`', () => {
    expect(committed).toBe(renderEnvExampleFile());
  });

  it('when the tooling, compose or a script reads a variable, then .env.example or docs/configuration.md lists it (declared in an env schema)', () => {
    const read = new Map([...readByCode(), ...readByComposeAndShell()]);
    const missing = [...read]
      .filter(([name]) => !listed.has(name) && !(name in NOT_SET_BY_USERS))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it('when a variable is exempted as set by no user, then the tooling still reads it (no stale exemption)', () => {
    const read = new Map([...readByCode(), ...readByComposeAndShell()]);
    expect(Object.keys(NOT_SET_BY_USERS).filter((name) => !read.has(name))).toEqual([]);
  });
});
