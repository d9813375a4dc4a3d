/**
 * The runnable examples of a markdown page. The convention (docs/testing.md, "Examples in the
 * docs are tests"): a ```` ```console ```` block holds commands, each on a line starting with `$ `
 * (a trailing `\` continues it on the next line), each followed by what it prints. Other fences
 * (`bash`, `sh`, ...) are shown, never run, and may not hold a curl: an HTTP example always states
 * its answer, so the docs test can compare it.
 */

/** One `$ ` command of a console block and the lines shown after it. */
export interface DocCommand {
  page: string;
  /** 1-based line of the `$ ` in the page. */
  line: number;
  /** The command as a shell reads it (continuation lines joined with their `\`). */
  command: string;
  /** The lines shown after it, up to the next command or the end of the block. */
  expected: string[];
}

/** One console block: its commands share shell variables (`TOKEN=$(...)`), in order. */
export interface DocExample {
  page: string;
  line: number;
  commands: DocCommand[];
  /**
   * The paragraph right after the block starts with `(abridged)`: the lines shown are a sample of
   * the output, in order, and words holding a digit (times, ids, offsets) vary from run to run.
   */
  abridged: boolean;
}

interface Fence {
  info: string;
  /** 1-based line of the opening fence. */
  line: number;
  body: string[];
  /** The first non-blank line after the closing fence. */
  after: string;
}

function fences(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const found: Fence[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)/.exec(lines[index]);
    if (!open) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !/^```\s*$/.test(lines[index]); index++) body.push(lines[index]);
    let next = index + 1;
    while (next < lines.length && lines[next].trim() === '') next++;
    found.push({ info: open[1], line: start + 1, body, after: lines[next] ?? '' });
  }
  return found;
}

/** The console blocks of `markdown`, each with its commands and their expected output. */
export function docExamples(page: string, markdown: string): DocExample[] {
  return fences(markdown)
    .filter((fence) => fence.info === 'console')
    .map((fence) => {
      const commands: DocCommand[] = [];
      for (let index = 0; index < fence.body.length; index++) {
        const text = fence.body[index];
        if (!text.startsWith('$ ')) {
          if (commands.length === 0) throw new Error(`${page}:${fence.line + 1 + index}: console output before any "$ " command`);
          commands.at(-1)!.expected.push(text);
          continue;
        }
        const line = fence.line + 1 + index;
        let command = text.slice(2);
        while (command.endsWith('\\') && index + 1 < fence.body.length) command += `\n${fence.body[++index]}`;
        commands.push({ page, line, command, expected: [] });
      }
      return { page, line: fence.line, commands, abridged: fence.after.startsWith('(abridged)') };
    });
}

/** Whether `command` calls curl (at its start, after `;`/`&&`/`|`, or in a `$(...)`). */
export function callsCurl(command: string): boolean {
  return /(^|[;&|(]\s*)curl\s/.test(command.trim());
}

/**
 * What breaks the convention on `markdown`: a curl in a fence that is not run, in an inline code
 * span, or a console curl without its answer. Each problem names the page and line.
 */
export function unstatedExamples(page: string, markdown: string): string[] {
  const problems: string[] = [];
  for (const fence of fences(markdown)) {
    if (fence.info === 'console') continue;
    fence.body.forEach((text, index) => {
      if (callsCurl(text))
        problems.push(
          `${page}:${fence.line + 1 + index}: curl in a \`\`\`${fence.info} block, which is never run: use a console block with its answer`,
        );
    });
  }
  let inFence = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^```/.test(text)) inFence = !inFence;
    if (inFence) return;
    for (const [, span] of text.matchAll(/`([^`]+)`/g))
      if (/^curl\s/.test(span))
        problems.push(`${page}:${index + 1}: curl in an inline code span: put it in a console block with its answer`);
  });
  for (const example of docExamples(page, markdown))
    for (const command of example.commands)
      if (callsCurl(command.command) && command.expected.every((text) => text.trim() === ''))
        problems.push(`${page}:${command.line}: curl without the answer it gets on the lines after it`);
  return problems;
}
