import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The executable steps of a guide: each fenced block preceded by a tag in an HTML comment, either
// `<!-- apply: <file> <how> -->` (the block is code that goes into <file>) or `<!-- run -->` (the
// block's lines are commands). docs/extending.md is written this way so a test can follow it.

/** How a block goes into its file: a new file, the end of it, or around the one line holding an anchor. */
type ApplyMode = 'create' | 'append' | 'insert-before' | 'replace-line';

export type GuideStep =
  | { kind: 'apply'; line: number; file: string; mode: ApplyMode; anchor?: string; code: string }
  | { kind: 'run'; line: number; commands: string[] };

const APPLY_TAG = /^<!-- apply: (\S+) (create|append|insert-before:|replace-line:)(?: (.+?))? -->$/;
const RUN_TAG = /^<!-- run -->$/;

/** A step as a test names it: where it is in the guide and what it does. */
export function describeStep(step: GuideStep): string {
  if (step.kind === 'run') return `line ${step.line}: run ${step.commands.join(' && ')}`;
  return `line ${step.line}: ${step.mode}${step.anchor ? ` "${step.anchor}"` : ''} in ${step.file}`;
}

/**
 * The tagged blocks of `markdown`, in order. A tag not followed by a fenced block, or an unknown
 * tag, is an error naming its line: a typo must not quietly drop a step.
 */
export function guideSteps(markdown: string): GuideStep[] {
  const lines = markdown.split('\n');
  const steps: GuideStep[] = [];
  for (let index = 0; index < lines.length; index++) {
    const tag = lines[index].trim();
    if (!tag.startsWith('<!-- apply') && !tag.startsWith('<!-- run')) continue;
    const line = index + 1;
    const open = lines[index + 1]?.trim() ?? '';
    if (!open.startsWith('```')) throw new Error(`line ${line}: the tag "${tag}" is not followed by a fenced code block`);
    const close = lines.findIndex((text, at) => at > index + 1 && text.trim() === '```');
    if (close < 0) throw new Error(`line ${line}: the code block after "${tag}" is never closed`);
    const body = lines.slice(index + 2, close);
    const apply = APPLY_TAG.exec(tag);
    if (apply) {
      const [, file, how, anchor] = apply;
      const mode = how.replace(/:$/, '') as ApplyMode;
      const anchored = mode === 'insert-before' || mode === 'replace-line';
      if (anchored !== (anchor !== undefined)) throw new Error(`line ${line}: "${tag}": ${mode} ${anchored ? 'needs' : 'takes no'} anchor`);
      steps.push({ kind: 'apply', line, file, mode, anchor, code: body.join('\n') });
    } else if (RUN_TAG.test(tag)) {
      steps.push({ kind: 'run', line, commands: body.map((command) => command.trim()).filter(Boolean) });
    } else {
      throw new Error(
        `line ${line}: unknown tag "${tag}" (apply: <file> create|append|insert-before: <text>|replace-line: <text>, or run)`,
      );
    }
    index = close;
  }
  return steps;
}

/** The fenced blocks of `markdown` with no tag right above them, by line: blocks a reader would have to apply by hand. */
export function untaggedBlocks(markdown: string): number[] {
  const lines = markdown.split('\n');
  const untagged: number[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!lines[index].trim().startsWith('```')) continue;
    const tagged = /^<!-- (apply: .+|run) -->$/.test(lines[index - 1]?.trim() ?? '');
    if (!tagged) untagged.push(index + 1);
    const close = lines.findIndex((text, at) => at > index && text.trim() === '```');
    index = close < 0 ? lines.length : close;
  }
  return untagged;
}

/**
 * Applies one step in the repository copy at `root`. An anchor that matches no line, or more than
 * one, and a file that is missing (or, for `create`, already there) fail with the step named.
 */
export function applyStep(root: string, step: GuideStep, run: (command: string) => void = (command) => runCommand(root, command)): void {
  if (step.kind === 'run') {
    for (const command of step.commands) run(command);
    return;
  }
  const path = join(root, step.file);
  const fail = (problem: string) => new Error(`${describeStep(step)}: ${problem}`);
  if (step.mode === 'create') {
    if (existsSync(path)) throw fail('the file already exists');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${step.code}\n`);
    return;
  }
  if (!existsSync(path)) throw fail('no such file');
  const text = readFileSync(path, 'utf8');
  if (step.mode === 'append') {
    writeFileSync(path, `${text.replace(/\n*$/, '\n')}${step.code}\n`);
    return;
  }
  const lines = text.split('\n');
  const matches = lines.flatMap((line, index) => (line.includes(step.anchor!) ? [index] : []));
  if (matches.length !== 1) throw fail(matches.length === 0 ? 'no line contains the anchor' : `${matches.length} lines contain the anchor`);
  const [at] = matches;
  const replaced = step.mode === 'replace-line' ? 1 : 0;
  lines.splice(at, replaced, ...step.code.split('\n'));
  writeFileSync(path, lines.join('\n'));
}

/** Runs a guide's command (`npm run <script>`) in the copy, its output kept for the error when it fails. */
function runCommand(root: string, command: string): void {
  try {
    execFileSync('sh', ['-c', command], { cwd: root, stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`the guide's command "${command}" failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}
