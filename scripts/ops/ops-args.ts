import { type CommandSpec, readCommandLine } from '@tools/local-stack';

/** Positional words and `--name value` / `--flag` options of one `npm run ops -- ...` call. */
export interface OpsArgs {
  words: string[];
  options: Map<string, string | true>;
}

/** Every option of every ops command: the shared parser refuses any other, naming it. */
const OPS_COMMAND = {
  name: 'ops',
  usage: 'npm run ops --',
  summary: 'What an operator needs when the dashboards say something is wrong.',
  positionals: '<command>',
  flags: {
    all: { type: 'boolean', description: 'every dead letter (dlq replay) or parked command (loyalty retry)' },
    'dry-run': { type: 'boolean', description: 'dlq replay: check and report, send nothing' },
    topic: { type: 'string', description: 'dlq list: one topic' },
    reason: { type: 'string', description: 'filter: the dead-letter reason' },
    type: { type: 'string', description: 'filter: the message type' },
    partition: { type: 'string', description: 'filter: the partition' },
    'from-offset': { type: 'string', description: 'filter: first dead-letter offset' },
    'to-offset': { type: 'string', description: 'filter: last dead-letter offset' },
    offset: { type: 'string', description: 'dlq replay: one dead letter' },
    service: { type: 'string', description: 'outbox pending: orders or inventory' },
    limit: { type: 'string', description: 'outbox pending: at most this many rows; topic tail: records per partition' },
    database: { type: 'string', description: "overrides the service's database" },
  },
} satisfies CommandSpec;

/**
 * Reads one ops command line with the shared parser: an unknown option, a missing value or a value
 * given to a flag is a {@link UsageError} (exit 2) naming it and listing the valid options.
 * `--help` is kept as an option: ops prints its own usage, which describes each command.
 */
export function parseOpsArgs(argv: string[]): OpsArgs {
  const line = readCommandLine(OPS_COMMAND, argv);
  if (line.kind === 'help') return { words: [], options: new Map([['help', true]]) };
  if (line.kind === 'error') throw new UsageError(line.message);
  const options = new Map<string, string | true>();
  for (const [name, value] of Object.entries(line.values)) if (value !== undefined && value !== false) options.set(name, value);
  return { words: [...line.positionals], options };
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
