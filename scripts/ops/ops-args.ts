/** Positional words and `--name value` / `--flag` options of one `npm run ops -- ...` call. */
export interface OpsArgs {
  words: string[];
  options: Map<string, string | true>;
}

/** Options that take no value. */
const FLAGS = new Set(['all', 'help', 'dry-run']);

export function parseOpsArgs(argv: string[]): OpsArgs {
  const words: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (FLAGS.has(name)) options.set(name, true);
    else if (inline !== undefined) options.set(name, inline);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options.set(name, argv[(i += 1)]);
    else throw new UsageError(`--${name} needs a value`);
  }
  return { words, options };
}

/** A mistake in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export function stringOption(args: OpsArgs, name: string): string | undefined {
  const value = args.options.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

export function integerOption(args: OpsArgs, name: string): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer, got "${value}"`);
  return Number(value);
}
