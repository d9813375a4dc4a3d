import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { findRepoRoot } from '@tools/local-stack';

const root = findRepoRoot();
const run = promisify(execFile);

/** The test files `npm run <script> -- <args> --listTests` would run (Jest lists them and runs none). */
async function listed(script: string, ...args: string[]): Promise<string[]> {
  const { stdout } = await run('npm', ['run', '--silent', script, '--', ...args, '--listTests'], { cwd: root, timeout: 60_000 });
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('/'))
    .sort();
}

// docs/testing.md says how to run one file; Jest's `--selectProjects unit <path>` took the path for a
// second project name and ran the whole project.
describe('npm run test:unit -- <path>', () => {
  it('when given one file, then only that file runs', async () => {
    const file = 'libs/config/src/redact-credentials.spec.ts';
    expect(await listed('test:unit', file)).toEqual([join(root, file)]);
  });

  it('when given a folder, then only the unit specs under it run, never an integration or e2e spec', async () => {
    const files = await listed('test:unit', 'test/ops');
    expect(files.length).toBeGreaterThan(0);
    expect(
      files.filter((file) => !file.startsWith(join(root, 'test/ops/')) || !file.endsWith('.spec.ts') || /\.(int|e2e)-spec\.ts$/.test(file)),
    ).toEqual([]);
  });
});
