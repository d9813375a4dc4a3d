import { parseArgs } from 'node:util';

/** One `--name` option of a command. */
export interface FlagSpec {
  /** `boolean`: present or not (`--quick`); `string`: takes a value (`--only e2e` or `--only=e2e`). */
  readonly type: 'boolean' | 'string';
  /** One line for `--help`. */
  readonly description: string;
  /** What the value stands for in `--help` (`--only <sections>`); default `value`. */
  readonly placeholder?: string;
}

/** What a command accepts: the single declaration `--help` and the errors are written from. */
export interface CommandSpec {
  /** Prefix of its error messages, e.g. `bench`. */
  readonly name: string;
  /** How a user runs it, e.g. `npm run bench --`. */
  readonly usage: string;
  /** What it does, in a sentence or two. */
  readonly summary: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** Positional arguments in `--help` (`[file.json]`); when absent, any positional is refused. */
  readonly positionals?: string;
}

/** The values of `flags` as read: `true` or a string for each flag given, absent otherwise. */
export type FlagValues<F extends CommandSpec['flags']> = { readonly [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : string };

/** A command line to run with: the flags' values and the positional arguments. */
export interface CommandRun<F extends CommandSpec['flags']> {
  readonly kind: 'run';
  readonly values: FlagValues<F>;
  readonly positionals: readonly string[];
}

/** What the command line asked for: help, a mistake (exit 2), or values to run with. */
export type CommandLine<F extends CommandSpec['flags'] = CommandSpec['flags']> =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string; readonly text: string }
  | CommandRun<F>;

/** The `--help` text of `spec`. */
export function commandHelp(spec: CommandSpec): string {
  const help: FlagSpec = { type: 'boolean', description: 'print this text and exit' };
  const flags = Object.entries({ ...spec.flags, help });
  const names = flags.map(([name, flag]) => (flag.type === 'string' ? `--${name} <${flag.placeholder ?? 'value'}>` : `--${name}`));
  const width = Math.max(...names.map((name) => name.length));
  return [
    `usage: ${spec.usage} ${spec.positionals ? `${spec.positionals} ` : ''}[options]`,
    '',
    spec.summary,
    '',
    'options:',
    ...flags.map(([, flag], i) => `  ${names[i].padEnd(width)}  ${flag.description}`),
  ].join('\n');
}

/**
 * Reads `argv` against `spec` without side effects (the unit-tested part of
 * {@link parseCommandLine}). Strict: an unknown flag, a missing value or an unexpected positional is
 * an error naming it and listing the valid flags, never ignored (an ignored `--help` or typo
 * started a nine-minute benchmark).
 */
export function readCommandLine<const S extends CommandSpec>(spec: S, argv: readonly string[]): CommandLine<S['flags']> {
  const valid = [...Object.keys(spec.flags), 'help'].map((name) => `--${name}`).join(', ');
  const options = Object.fromEntries([
    ...Object.entries(spec.flags).map(([name, flag]) => [name, { type: flag.type }] as const),
    ['help', { type: 'boolean', short: 'h' }] as const,
  ]);
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: spec.positionals !== undefined });
    if ((values as { help?: boolean }).help) return { kind: 'help', text: commandHelp(spec) };
    return { kind: 'run', values: values as FlagValues<S['flags']>, positionals };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS')) throw error;
    // Node's own text names the flag ("Unknown option '--nope'"); the valid ones are added to it.
    const reason = (error as Error).message.split(/\.(\s|$)/)[0];
    return { kind: 'error', message: `${reason}; valid flags: ${valid}`, text: commandHelp(spec) };
  }
}

/**
 * The command line of this process, read against `spec`: `--help` (or `-h`) prints the help and
 * exits 0; a mistake prints what is wrong and the help to stderr and exits 2; otherwise the values.
 */
export function parseCommandLine<const S extends CommandSpec>(
  spec: S,
  argv: readonly string[] = process.argv.slice(2),
): CommandRun<S['flags']> {
  const line = readCommandLine(spec, argv);
  if (line.kind === 'help') {
    process.stdout.write(`${line.text}\n`);
    process.exit(0);
  }
  if (line.kind === 'error') {
    process.stderr.write(`${spec.name}: ${line.message}\n\n${line.text}\n`);
    process.exit(2);
  }
  return line;
}
