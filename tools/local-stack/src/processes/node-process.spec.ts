import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { NodeProcess } from './node-process.js';

// A real child process that prints numbered lines, then its last words, then exits.
const directory = mkdtempSync(join(tmpdir(), 'node-process-spec-'));
const entry = join(directory, 'print-lines.mjs');
writeFileSync(
  entry,
  `for (let n = 0; n < 20000; n += 1) process.stdout.write('line ' + n + '\\n');
   process.stdout.write('last words\\n');`,
);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function printed(keptOutputChars?: number): Promise<string> {
  const child = new NodeProcess({ name: 'print-lines', entry, env: process.env, cwd: directory, nodeArgs: [], keptOutputChars });
  await child.waitForOutput('last words', 30_000);
  await child.waitForExit();
  return child.logs;
}

describe('NodeProcess output', () => {
  it('keeps every line by default', async () => {
    const logs = await printed();

    expect(logs.split('\n').filter((line) => line.startsWith('line '))).toHaveLength(20000);
    expect(logs).toContain('line 0\n');
  });

  it('keeps about the last keptOutputChars characters: between that and twice that, the latest lines included', async () => {
    const logs = await printed(1000);

    expect(logs.length).toBeGreaterThanOrEqual(1000);
    expect(logs.length).toBeLessThanOrEqual(2000);
    expect(logs).toContain('line 19999\n');
    expect(logs).toContain('last words');
    expect(logs).not.toContain('line 0\n');
  });
});

describe('NodeProcess killedAfter (how a failpoint ends a process)', () => {
  const ending = (name: string, script: string) => {
    const file = join(directory, `${name}.mjs`);
    writeFileSync(file, script);
    return new NodeProcess({ name, entry: file, env: process.env, cwd: directory, nodeArgs: [] });
  };

  it('is true only for a process gone by SIGKILL that printed the text: not one that exited by itself after it, nor one killed without it', async () => {
    const hit = ending('hit', `process.stdout.write('FAILPOINT x hit: SIGKILL\\n', () => process.kill(process.pid, 'SIGKILL'));`);
    const exitedAfterText = ending('exited', `process.stdout.write('FAILPOINT x hit: SIGKILL\\n');`);
    const killedWithoutText = ending('killed', `process.kill(process.pid, 'SIGKILL');`);
    await Promise.all([hit, exitedAfterText, killedWithoutText].map((child) => child.waitForExit()));

    expect(await hit.killedAfter('FAILPOINT x hit: SIGKILL')).toBe(true);
    expect(await exitedAfterText.killedAfter('FAILPOINT x hit: SIGKILL')).toBe(false);
    expect(await killedWithoutText.killedAfter('FAILPOINT x hit: SIGKILL')).toBe(false);
  });
});
