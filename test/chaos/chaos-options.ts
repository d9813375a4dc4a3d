import { type CommandSpec, commandHelp, type FlagSpec, readCommandLine } from '@tools/local-stack';

/** What one chaos soak does; `npm run chaos -- --orders N --rate R --kill-every-ms M --seed S [--partitions]`. */
export interface ChaosOptions {
  /** Orders placed in all (each with its own `Idempotency-Key`). Default 500. */
  orders: number;
  /** Orders started per second (each then retries on its own). Default 8. */
  rate: number;
  /** Mean time from one SIGKILL to the next (jittered by +/-50 %); victims restart in the background, at most three down at once. Default 2000. */
  killEveryMs: number;
  /** Seed of every random choice (orders, retries, cancels, victims). Default: random, printed. */
  seed: number;
  /**
   * The kills go on after the load until at least this many happened (a slow machine restarts
   * slowly, so kills per second vary). Default 0: the kills end with the load.
   */
  minKills: number;
  /**
   * The kills go on after the load until at least this many were broker kills. Default 10 on a
   * cluster with `--kill-brokers` (a broker is one victim in six, so a fast machine's load alone may
   * end with fewer), else 0.
   */
  minBrokerKills: number;
  /** Share of acknowledged orders the client then cancels. Default 0.25. */
  cancelRatio: number;
  /** How long the system may take to become quiet after the load before the checker runs anyway. Default 180 s. */
  quietTimeoutMs: number;
  /** Print the services' output live. Default false (the tail of a process's output is kept for a report). */
  echo: boolean;
  /** Kafka nodes: 1 (default) one broker; 3 a local cluster (replication factor 3, min in-sync replicas 2). */
  kafkaNodes: number;
  /** SIGKILL brokers too (a random node of a cluster, leaders included). Default true; `--no-kill-brokers` spares them. */
  killBrokers: boolean;
  /**
   * Cut links too (`--partitions`): every process in a network namespace of its own, and random
   * partitions, each healed after a random hold (see test/chaos/partition-schedule.ts). Default false.
   */
  partitions: boolean;
  /** Mean time from one cut to the next (jittered by +/-50 %) with `--partitions`. Default 4000. */
  partitionEveryMs: number;
}

/** Broker kills a cluster soak waits for when `--min-broker-kills` is not given. */
const CLUSTER_MIN_BROKER_KILLS = 10;

export const DEFAULT_CHAOS_OPTIONS: Omit<ChaosOptions, 'seed' | 'minBrokerKills'> = {
  orders: 500,
  rate: 8,
  killEveryMs: 2000,
  minKills: 0,
  cancelRatio: 0.25,
  quietTimeoutMs: 180_000,
  echo: false,
  kafkaNodes: 1,
  killBrokers: true,
  partitions: false,
  partitionEveryMs: 4000,
};

/** The numeric flags and the option each sets. */
const NUMERIC_FLAGS = {
  orders: ['orders', 'orders placed in all (default 500)'],
  rate: ['rate', 'orders started per second (default 8)'],
  'kill-every-ms': ['killEveryMs', 'mean time between SIGKILLs, jittered by +/-50 % (default 2000)'],
  seed: ['seed', 'seed of every random choice (default: random, printed)'],
  'min-kills': ['minKills', 'the kills go on after the load until this many happened (default 0)'],
  'min-broker-kills': ['minBrokerKills', 'likewise for broker kills (default 10 on a cluster with --kill-brokers, else 0)'],
  'cancel-ratio': ['cancelRatio', 'share of acknowledged orders then cancelled (default 0.25)'],
  'quiet-timeout-ms': ['quietTimeoutMs', 'how long the system may take to become quiet (default 180000)'],
  'kafka-nodes': ['kafkaNodes', 'Kafka nodes: 1 a broker, 3 a local cluster (default 1)'],
  'partition-every-ms': ['partitionEveryMs', 'with --partitions: mean time between cuts, jittered by +/-50 % (default 4000)'],
} as const satisfies Record<string, readonly [keyof ChaosOptions, string]>;

/** The command line of `npm run chaos`, for the shared parser (`--help`, unknown flags refused). */
export const CHAOS_COMMAND = {
  name: 'chaos',
  usage: 'npm run chaos --',
  summary:
    'The chaos soak: orders under load while processes and brokers are SIGKILLed, then every invariant checked (docs/chaos.md). Exits 1 on any violation.',
  flags: {
    ...(Object.fromEntries(
      Object.entries(NUMERIC_FLAGS).map(([flag, [, description]]) => [flag, { type: 'string', placeholder: 'number', description }]),
    ) as Record<keyof typeof NUMERIC_FLAGS, FlagSpec>),
    'kill-brokers': { type: 'boolean', description: 'SIGKILL brokers too (the default)' },
    'no-kill-brokers': { type: 'boolean', description: 'spare the brokers' },
    partitions: {
      type: 'boolean',
      description:
        'cut network links too (apps from the broker or Postgres, inventory from loyalty, a broker from the others), each healed after a while',
    },
    echo: { type: 'boolean', description: "print the services' output live" },
  },
} satisfies CommandSpec;

/**
 * Parses the command line with the shared parser; an unknown flag is refused with the valid ones,
 * and every malformed value is reported at once. Throws on any problem (the runner exits 2).
 */
export function parseChaosArgs(argv: string[], randomSeed = Math.floor(Math.random() * 2 ** 31)): ChaosOptions {
  const line = readCommandLine(CHAOS_COMMAND, argv);
  if (line.kind === 'help') throw new Error(line.text);
  if (line.kind === 'error') throw new Error(`chaos: ${line.message}`);
  const { values } = line;
  const options: ChaosOptions = { ...DEFAULT_CHAOS_OPTIONS, seed: randomSeed, minBrokerKills: 0 };
  const given = new Set<keyof ChaosOptions>();
  const problems: string[] = [];
  if (values.echo) options.echo = true;
  if (values.partitions) options.partitions = true;
  // The last of the pair wins, as a later flag overrides an earlier one.
  const brokerFlag = argv.findLast((arg) => arg === '--kill-brokers' || arg === '--no-kill-brokers');
  if (brokerFlag) options.killBrokers = brokerFlag === '--kill-brokers';
  for (const [flag, [field]] of Object.entries(NUMERIC_FLAGS)) {
    const text = values[flag as keyof typeof NUMERIC_FLAGS];
    if (text === undefined) continue;
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) problems.push(`--${flag} needs a number, got ${text}`);
    else {
      options[field] = value;
      given.add(field);
    }
  }
  if (!Number.isInteger(options.orders) || options.orders < 1) problems.push('--orders must be a positive integer');
  if (!(options.rate > 0)) problems.push('--rate must be above 0');
  if (!(options.killEveryMs >= 100)) problems.push('--kill-every-ms must be at least 100');
  if (!Number.isInteger(options.minKills) || options.minKills < 0) problems.push('--min-kills must be a non-negative integer');
  // Its default depends on other flags, so it is settled once they are all read.
  if (!given.has('minBrokerKills')) options.minBrokerKills = options.killBrokers && options.kafkaNodes > 1 ? CLUSTER_MIN_BROKER_KILLS : 0;
  else if (!Number.isInteger(options.minBrokerKills) || options.minBrokerKills < 0)
    problems.push('--min-broker-kills must be a non-negative integer');
  else if (options.minBrokerKills > 0 && !options.killBrokers) problems.push('--min-broker-kills needs --kill-brokers');
  if (!Number.isInteger(options.seed) || options.seed < 0) problems.push('--seed must be a non-negative integer');
  if (!(options.cancelRatio >= 0 && options.cancelRatio <= 1)) problems.push('--cancel-ratio must be between 0 and 1');
  if (!Number.isInteger(options.kafkaNodes) || options.kafkaNodes < 1 || options.kafkaNodes > 5)
    problems.push('--kafka-nodes must be 1 to 5');
  if (!(options.partitionEveryMs >= 100)) problems.push('--partition-every-ms must be at least 100');
  else if (given.has('partitionEveryMs') && !options.partitions) problems.push('--partition-every-ms needs --partitions');
  if (problems.length > 0) throw new Error(`chaos: ${problems.join('; ')}\n\n${commandHelp(CHAOS_COMMAND)}`);
  return options;
}
