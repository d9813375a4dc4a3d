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

const NUMERIC_FLAGS = {
  '--orders': 'orders',
  '--rate': 'rate',
  '--kill-every-ms': 'killEveryMs',
  '--seed': 'seed',
  '--min-kills': 'minKills',
  '--min-broker-kills': 'minBrokerKills',
  '--cancel-ratio': 'cancelRatio',
  '--quiet-timeout-ms': 'quietTimeoutMs',
  '--kafka-nodes': 'kafkaNodes',
  '--partition-every-ms': 'partitionEveryMs',
} as const;

/** Parses the command line; every problem is reported at once. */
export function parseChaosArgs(argv: string[], randomSeed = Math.floor(Math.random() * 2 ** 31)): ChaosOptions {
  const options: ChaosOptions = { ...DEFAULT_CHAOS_OPTIONS, seed: randomSeed, minBrokerKills: 0 };
  const given = new Set<keyof ChaosOptions>();
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--echo') {
      options.echo = true;
      continue;
    }
    if (flag === '--partitions') {
      options.partitions = true;
      continue;
    }
    if (flag === '--kill-brokers' || flag === '--no-kill-brokers') {
      options.killBrokers = flag === '--kill-brokers';
      continue;
    }
    const [name, inline] = flag.split('=', 2) as [string, string | undefined];
    const field = NUMERIC_FLAGS[name as keyof typeof NUMERIC_FLAGS];
    if (!field) {
      problems.push(`unknown flag ${flag}`);
      continue;
    }
    const text = inline ?? argv[++i];
    const value = Number(text);
    if (text === undefined || !Number.isFinite(value)) problems.push(`${name} needs a number, got ${text ?? 'nothing'}`);
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
  if (problems.length > 0) {
    throw new Error(
      `chaos: ${problems.join('; ')}\nusage: npm run chaos -- [--orders N] [--rate R] [--kill-every-ms M] [--seed S] [--min-kills K] [--min-broker-kills B] [--cancel-ratio P] [--quiet-timeout-ms T] [--kafka-nodes N] [--kill-brokers | --no-kill-brokers] [--partitions [--partition-every-ms P]] [--echo]`,
    );
  }
  return options;
}
