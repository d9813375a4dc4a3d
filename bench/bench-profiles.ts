// The two sizes of `npm run bench`: `--quick` fits in about five minutes on a 2-core machine (every
// figure, fewer samples, shorter runs); the full run takes its time for steadier numbers.

export interface BenchProfile {
  mode: 'quick' | 'full';
  /** BENCH_* variables of the relay comparison (outbox-relay.bench.ts); the caller's environment wins. */
  relay: Record<string, string>;
  inbox: { messages: number; plainConcurrency: number; timeoutMs: number };
  /** Each server warmed for `warmUpMs`, then `rounds` interleaved rounds of `durationMs`, the median of each kept. */
  http: { concurrency: number; durationMs: number; warmUpMs: number; rounds: number };
  e2e: {
    /** The fixed rate every run reports (the target is set at it). */
    fixedPerSec: number;
    fixedDurationMs: number;
    stepDurationMs: number;
    /** Further rates of the stepped search after the fixed one. */
    maxSteps: number;
    settleMs: number;
    search: { minPerSec: number; maxPerSec: number; resolutionPerSec: number };
    /** The search stops starting new steps once the fixed run and the steps (not the warm-up) have run this long. */
    searchBudgetMs: number;
    /** Load at the fixed rate before the warm-up's windows, not measured (`--warm-up`). */
    warmUpMs: number;
    /**
     * Then windows of this length at the fixed rate until the loop's CPU per order settles
     * (warm-up.ts), for at most `warmUpMaxMs` of windows: every figure is taken after them.
     */
    warmUpWindowMs: number;
    warmUpMaxMs: number;
    /** Length of each overload run (2x and 4x the sustained maximum). */
    overloadDurationMs: number;
  };
  drain: { orders: number; timeoutMs: number };
  /** Each pass of the layers section (a fresh loop at `e2e.fixedPerSec`): unmeasured warm-up, then the measured part. */
  layers: { warmUpMs: number; durationMs: number };
}

export const QUICK: BenchProfile = {
  mode: 'quick',
  relay: { BENCH_MESSAGES: '2000', BENCH_REPETITIONS: '2', BENCH_LATENCY_SAMPLES: '3' },
  inbox: { messages: 500, plainConcurrency: 3, timeoutMs: 60_000 },
  // The warm-up matters: a Nest app just started runs its first seconds of requests at a third of
  // its speed (JIT, pool connections, TypeORM metadata).
  http: { concurrency: 16, durationMs: 2000, warmUpMs: 5000, rounds: 3 },
  e2e: {
    fixedPerSec: 150,
    fixedDurationMs: 30_000,
    stepDurationMs: 12_000,
    maxSteps: 2,
    settleMs: 20_000,
    search: { minPerSec: 25, maxPerSec: 1200, resolutionPerSec: 25 },
    searchBudgetMs: 120_000,
    warmUpMs: 5000,
    warmUpWindowMs: 10_000,
    warmUpMaxMs: 90_000,
    overloadDurationMs: 12_000,
  },
  drain: { orders: 500, timeoutMs: 45_000 },
  layers: { warmUpMs: 10_000, durationMs: 20_000 },
};

export const FULL: BenchProfile = {
  mode: 'full',
  relay: {},
  inbox: { messages: 5000, plainConcurrency: 3, timeoutMs: 300_000 },
  http: { concurrency: 16, durationMs: 5000, warmUpMs: 10_000, rounds: 4 },
  e2e: {
    fixedPerSec: 150,
    fixedDurationMs: 60_000,
    stepDurationMs: 45_000,
    maxSteps: 6,
    settleMs: 120_000,
    search: { minPerSec: 25, maxPerSec: 1200, resolutionPerSec: 25 },
    searchBudgetMs: 30 * 60_000,
    warmUpMs: 15_000,
    warmUpWindowMs: 15_000,
    warmUpMaxMs: 240_000,
    overloadDurationMs: 45_000,
  },
  drain: { orders: 3000, timeoutMs: 300_000 },
  layers: { warmUpMs: 20_000, durationMs: 45_000 },
};

/** The figures the suite measures, in the order it measures them. */
export const SECTIONS = ['relay', 'inbox', 'http', 'e2e', 'overload', 'drain', 'layers'] as const;

/** The multiples of the sustained maximum the overload section offers. */
export const OVERLOAD_MULTIPLES = [2, 4] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * The sections `--only=a,b` selects (all without it): a run about one figure, for example
 * `npm run bench -- --quick --only=e2e,drain` while changing the consumers. Unknown names throw.
 */
export function selectedSections(only: string | undefined): Set<Section> {
  if (only === undefined) return new Set(SECTIONS);
  const names = only.split(',').filter(Boolean);
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`--only takes a comma-separated list of ${SECTIONS.join(', ')}; got "${only}"`);
  return new Set(names as Section[]);
}

/**
 * The sections that run on the end-to-end stack: orders and inventory started on fresh databases.
 * Not `layers`: each of its passes starts a loop of its own.
 */
const STACK_SECTIONS: readonly Section[] = ['e2e', 'overload', 'drain'];

/** True when `sections` place orders through the end-to-end stack. */
export function needsStack(sections: ReadonlySet<Section>): boolean {
  return STACK_SECTIONS.some((section) => sections.has(section));
}

/** True when `sections` need the one loyalty process of the run: the inbox figure's and the stack's. */
export function needsLoyalty(sections: ReadonlySet<Section>): boolean {
  return sections.has('inbox') || needsStack(sections);
}

/** What `--soak <minutes>` asks for: a steady share of a maximum rate for that long. */
export interface SoakOptions {
  minutes: number;
  /** Share of the maximum offered (0.7): steady, below the knee, so what grows is the leak, not the queue. */
  share: number;
  /** `--rate=<orders/s>`: the maximum to take the share of; without it, the last run's sustained maximum. */
  ratePerSec: number | undefined;
}

/** `--soak <minutes>` (or `--soak=<minutes>`) and `--rate=<n>`; undefined without `--soak`. Malformed values throw. */
export function soakOptions(soak: string | undefined, rate: string | undefined): SoakOptions | undefined {
  if (soak === undefined) {
    if (rate !== undefined) throw new Error('--rate goes with --soak');
    return undefined;
  }
  const minutes = Number(soak);
  if (!soak || !Number.isFinite(minutes) || minutes <= 0) throw new Error(`--soak takes minutes (a positive number); got "${soak}"`);
  const ratePerSec = rate === undefined ? undefined : Number(rate);
  if (ratePerSec !== undefined && (!Number.isFinite(ratePerSec) || ratePerSec <= 0))
    throw new Error(`--rate takes orders per second (a positive number); got "${rate}"`);
  return { minutes, share: 0.7, ratePerSec };
}

/**
 * `profile` with its end-to-end fixed rate set by `--fixed-rate=<orders/s>` and its warm-up by
 * `--warm-up=<seconds>`; unchanged without them. Malformed values throw.
 */
export function withFixedRate(profile: BenchProfile, rate: string | undefined, warmUpSeconds?: string): BenchProfile {
  const positive = (flag: string, value: string, unit: string) => {
    const number = Number(value);
    if (!Number.isFinite(number) || number <= 0) throw new Error(`--${flag} takes ${unit} (a positive number); got "${value}"`);
    return number;
  };
  const e2e = { ...profile.e2e };
  if (rate !== undefined) e2e.fixedPerSec = positive('fixed-rate', rate, 'orders per second');
  if (warmUpSeconds !== undefined) e2e.warmUpMs = positive('warm-up', warmUpSeconds, 'seconds') * 1000;
  return rate === undefined && warmUpSeconds === undefined ? profile : { ...profile, e2e };
}
