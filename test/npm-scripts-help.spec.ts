import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { findRepoRoot } from '@tools/local-stack';

const root = findRepoRoot();
const scripts = Object.entries(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>);
const run = promisify(execFile);

/** A help must answer in seconds: a help that first built or type-checked took a minute. */
const HELP_DEADLINE_MS = 20_000;
/** Spawns at once: npm and Node start-ups on a shared two-core machine. */
const CONCURRENCY = 4;

/** Modification time of every file under the directories a command could write (dist/, docs/) and of the root's files. */
function snapshot(): Map<string, number> {
  const times = new Map<string, number>();
  const walk = (dir: string, deep: boolean) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (deep) walk(path, true);
      } else if (entry.isFile()) times.set(path, statSync(join(root, path)).mtimeMs);
    }
  };
  walk('.', false);
  for (const dir of ['dist', 'docs']) if (statSync(join(root, dir), { throwIfNoEntry: false })?.isDirectory()) walk(dir, true);
  return times;
}

function changedBetween(before: Map<string, number>, after: Map<string, number>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path));
}

async function gitStatus(): Promise<string> {
  return (await run('git', ['status', '--porcelain'], { cwd: root })).stdout;
}

interface HelpRun {
  name: string;
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

async function help(name: string): Promise<HelpRun> {
  const started = Date.now();
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', name, '--', '--help'], { cwd: root, timeout: HELP_DEADLINE_MS });
    return { name, code: 0, stdout, stderr, ms: Date.now() - started };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      name,
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
      ms: Date.now() - started,
    };
  }
}

describe('npm run <script> -- --help', () => {
  it('when a script is added to package.json, then it runs through scripts/npm-script.sh (which answers --help first)', () => {
    expect(scripts.filter(([, command]) => !/^sh scripts\/npm-script\.sh '[^']+'$/.test(command)).map(([name]) => name)).toEqual([]);
  });

  it('when any script is asked for --help, then it prints a usage line, exits 0, in seconds, and changes no file', async () => {
    const statusBefore = await gitStatus();
    const before = snapshot();
    const runs: HelpRun[] = [];
    const queue = scripts.map(([name]) => name);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) runs.push(await help(name));
      }),
    );
    const wrong = runs
      .filter((helped) => helped.code !== 0 || !/^usage: /im.test(helped.stdout) || helped.ms > HELP_DEADLINE_MS)
      .map((helped) => `${helped.name}: exit ${helped.code} after ${helped.ms} ms; ${(helped.stdout + helped.stderr).slice(0, 300)}`);
    expect(wrong).toEqual([]);
    expect(runs).toHaveLength(scripts.length);
    expect(changedBetween(before, snapshot())).toEqual([]);
    expect(await gitStatus()).toBe(statusBefore);
  }, 180_000);
});
