import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { applyStep, guideSteps, untaggedBlocks } from './guide-steps.js';

const directory = mkdtempSync(join(tmpdir(), 'guide-steps-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const guide = [
  'Declare it:',
  '<!-- apply: a.ts replace-line: const b = 2; -->',
  '```ts',
  'const b = 2;',
  'const c = 3;',
  '```',
  '<!-- apply: a.ts insert-before: const b -->',
  '```ts',
  'const a0 = 0;',
  '```',
  '<!-- apply: new/d.ts create -->',
  '```ts',
  'export const d = 4;',
  '```',
  '<!-- run -->',
  '```bash',
  'npm run docs:reference',
  '```',
].join('\n');

describe('the tagged steps of a guide', () => {
  it('when a guide tags its blocks, then each becomes a step in order, and applying them edits around the anchor line', () => {
    const steps = guideSteps(guide);
    expect(steps.map((step) => (step.kind === 'apply' ? `${step.mode} ${step.file}` : `run ${step.commands.join()}`))).toEqual([
      'replace-line a.ts',
      'insert-before a.ts',
      'create new/d.ts',
      'run npm run docs:reference',
    ]);
    writeFileSync(join(directory, 'a.ts'), 'const a = 1;\nconst b = 2;\n');
    const commands: string[] = [];
    for (const step of steps) applyStep(directory, step, (command) => commands.push(command));
    expect(readFileSync(join(directory, 'a.ts'), 'utf8')).toBe('const a = 1;\nconst a0 = 0;\nconst b = 2;\nconst c = 3;\n');
    expect(readFileSync(join(directory, 'new/d.ts'), 'utf8')).toBe('export const d = 4;\n');
    expect(commands).toEqual(['npm run docs:reference']);
    expect(untaggedBlocks(guide)).toEqual([]);
  });

  it('when the anchor of a block is gone or ambiguous, then applying it fails naming the block and its file', () => {
    writeFileSync(join(directory, 'gone.ts'), 'const x = 1;\nconst x2 = 1;\n');
    const [missing] = guideSteps('<!-- apply: gone.ts replace-line: const b = 2; -->\n```ts\nconst b = 3;\n```');
    expect(() => applyStep(directory, missing)).toThrow('line 1: replace-line "const b = 2;" in gone.ts: no line contains the anchor');
    const [twice] = guideSteps('\n<!-- apply: gone.ts insert-before: const x -->\n```ts\nconst w = 0;\n```');
    expect(() => applyStep(directory, twice)).toThrow('line 2: insert-before "const x" in gone.ts: 2 lines contain the anchor');
  });

  it('when a tag is malformed or a block untagged, then the guide is refused or the block reported', () => {
    expect(() => guideSteps('<!-- apply: a.ts move -->\n```ts\nx\n```')).toThrow('line 1: unknown tag');
    expect(() => guideSteps('<!-- apply: a.ts replace-line -->\n```ts\nx\n```')).toThrow('line 1: unknown tag');
    expect(() => guideSteps('<!-- apply: a.ts create -->\nno block')).toThrow('line 1: the tag');
    expect(untaggedBlocks('text\n```ts\nx\n```\n<!-- run -->\n```bash\nnpm run x\n```')).toEqual([2]);
  });
});
