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
