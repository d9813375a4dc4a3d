import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { applyStep, describeStep, guideSteps } from './guide-steps.js';

// docs/extending.md, followed to the letter: every tagged block and command of "Add an event end to
// end" applied, in order, to a scratch copy of the working tree (uncommitted edits included, dist/
// and .local/ left out, node_modules linked), then the type check and the suites those steps touch
// run in the copy, the use case's integration spec against the Postgres of the test setup. The
// generated pages and the contract release are the guide's own `npm run` commands, run in the copy.
const root = fileURLToPath(new URL('../..', import.meta.url));
const guide = readFileSync(join(root, 'docs/extending.md'), 'utf8');
const eventSection = guide.slice(0, guide.indexOf('## Add a consumer in a new service'));

/**
 * The suites of the files the guide's table lists: the specs it edits, those of the files it edits
 * (contracts, consumes, handler map), the generated pages and the contract check, and this guide's own spec.
 */
const TOUCHED_SUITES = [
  'libs/contracts/src/order-events.spec.ts',
  'apps/inventory/src/inventory.consumes.spec.ts',
  'test/asyncapi.spec.ts',
  'test/openapi.spec.ts',
  'test/docs-reference.spec.ts',
  'test/contracts/contract-evolution.spec.ts',
  'test/extending/extending-guide.spec.ts',
];

/**
 * The integration specs the guide writes (step 5) and the one its migration must pass (every app's
 * migrations up, down and up again); they use the build the guide's `npm run` commands made in the copy.
 */
const INTEGRATION_SUITES = ['apps/orders/src/orders/ship-order/ship-order.int-spec.ts', 'test/foundation/migrations.int-spec.ts'];

const copy = mkdtempSync(join(tmpdir(), 'extending-guide-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** The working tree as git sees it (tracked and untracked, ignored files left out), copied file by file. */
function copyWorkingTree(target: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  for (const file of new Set(listed.split('\0').filter(Boolean))) {
    if (/^(dist|\.local|node_modules)(\/|$)/.test(file) || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(join(root, file), join(target, file));
  }
  symlinkSync(join(root, 'node_modules'), join(target, 'node_modules'), 'dir');
}

/** Every file of the copy but its links and build output, by path relative to it: what a step may change. */
function contentsOf(directory: string): Map<string, string> {
  const contents = new Map<string, string>();
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    const path = relative(directory, join(entry.parentPath, entry.name));
    if (entry.isFile() && !/^(dist|node_modules)\//.test(path)) contents.set(path, readFileSync(join(directory, path), 'utf8'));
  }
  return contents;
}

/** Runs a program in the copy; its exit status and output, for an assertion that shows them. */
function inCopy(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, { cwd: copy, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

describe('docs/extending.md, applied to a copy of the repository', () => {
  const steps = guideSteps(eventSection);

  it('when every tagged block and command of the event recipe is applied in order, then each applies', () => {
    copyWorkingTree(copy);
    expect(steps.filter((step) => step.kind === 'apply').length).toBeGreaterThanOrEqual(15);
    expect(steps.filter((step) => step.kind === 'run').flatMap((step) => (step.kind === 'run' ? step.commands : []))).toEqual([
      'npm run docs:reference',
      'npm run contracts:release',
    ]);
    const before = contentsOf(copy);
    for (const step of steps) {
      try {
        applyStep(copy, step);
      } catch (error) {
        throw new Error(`docs/extending.md ${describeStep(step)} no longer applies: ${(error as Error).message}`);
      }
    }
    const after = contentsOf(copy);
    const changed = [...after.keys()].filter((file) => after.get(file) !== before.get(file)).sort();
    // The guide's table of the files an event touches is what applying it changed.
    const table = [...eventSection.matchAll(/^\| \d+ \| `([^`]+)` \| `([^`]+)` \| (?:edit|new|generated|released) \|$/gm)].map(
      ([, folder, file]) => `${folder}${file}`,
    );
    expect(changed).toEqual([...table].sort());
  });

  it('when the guide has been applied, then the copy type-checks', () => {
    const typecheck = inCopy(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit']);
    expect(typecheck).toEqual({ status: 0, output: '' });
  });

  it('when the guide has been applied, then the files it writes pass the formatter and the linter', () => {
    const written = [...new Set(steps.flatMap((step) => (step.kind === 'apply' ? [step.file] : [])))];
    expect(inCopy(process.execPath, ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level=warn', ...written])).toEqual({
      status: 0,
      output: '',
    });
    expect(inCopy(process.execPath, ['node_modules/eslint/bin/eslint.js', ...written])).toEqual({ status: 0, output: '' });
  });

  it('when the guide has been applied, then the suites of the files it touches pass in the copy', () => {
    const jest = inCopy(
      process.execPath,
      ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci', '--maxWorkers=2', ...TOUCHED_SUITES],
      { TEST_PROJECT: 'unit' },
    );
    expect({ status: jest.status, tail: jest.status === 0 ? '' : jest.output.slice(-6000) }).toEqual({ status: 0, tail: '' });
    for (const suite of TOUCHED_SUITES) expect(jest.output).toContain(`PASS unit ${suite}`);
  });

  it("when the guide has been applied, then the use case's integration spec and the migrations' pass in the copy, against real Postgres", () => {
    const jest = inCopy(
      process.execPath,
      ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci', '--maxWorkers=1', ...INTEGRATION_SUITES],
      { TEST_PROJECT: 'integration' },
    );
    expect({ status: jest.status, tail: jest.status === 0 ? '' : jest.output.slice(-6000) }).toEqual({ status: 0, tail: '' });
    for (const suite of INTEGRATION_SUITES) expect(jest.output).toContain(`PASS integration ${suite}`);
  });
});
