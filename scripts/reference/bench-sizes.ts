// bench/README.md's table of the suite's sizes: the two profiles of bench/bench-profiles.ts, as run.
import { envDefault } from '@libs/config';
import { FULL, QUICK, type BenchProfile } from '../../bench/bench-profiles.js';
import { benchEnv, relayBenchEnv } from '../../bench/bench.env.js';
import { IDLE_RSS_READINGS } from '../../bench/idle-rss.js';

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en-US')} s`;
const count = (value: number) => value.toLocaleString('en-US');

/** A relay variable as the profile runs it: its own value, else the variable's default. */
function relaySetting(profile: BenchProfile, name: keyof typeof relayBenchEnv): number {
  return Number(profile.relay[name] ?? envDefault(relayBenchEnv[name]));
}

/** What each profile runs, section by section. */
const ROWS: [string, (profile: BenchProfile) => string][] = [
  [
    'relay',
    (p) =>
      `${count(relaySetting(p, 'BENCH_MESSAGES'))} messages in batches of ${count(relaySetting(p, 'BENCH_BATCH_SIZE'))}, ` +
      `${relaySetting(p, 'BENCH_REPETITIONS')} repetitions after a warm-up; ${relaySetting(p, 'BENCH_LATENCY_SAMPLES')} latency samples per mode`,
  ],
  ['inbox', (p) => `${count(p.inbox.messages)} messages, deadline ${seconds(p.inbox.timeoutMs)}`],
  [
    'http',
    (p) =>
      `${p.http.concurrency} clients; each server warmed ${seconds(p.http.warmUpMs)}, then ${p.http.rounds} interleaved rounds of ${seconds(p.http.durationMs)}`,
  ],
  [
    'memory at idle',
    () =>
      `${seconds(envDefault(benchEnv.IDLE_SETTLE_MS) ?? Number.NaN)} with nothing in flight (\`IDLE_SETTLE_MS\`), then the median of ${IDLE_RSS_READINGS.samples} readings ${seconds(IDLE_RSS_READINGS.intervalMs)} apart`,
  ],
  [
    'end-to-end warm-up',
    (p) =>
      `${p.e2e.fixedPerSec}/s for ${seconds(p.e2e.warmUpMs)} (\`--warm-up\`), then windows of ${seconds(p.e2e.warmUpWindowMs)} until the CPU per order stops falling, at most ${seconds(p.e2e.warmUpMaxMs)} of them`,
  ],
  ['end to end, fixed rate', (p) => `${p.e2e.fixedPerSec}/s for ${seconds(p.e2e.fixedDurationMs)} (\`--fixed-rate\`)`],
  [
    'rate search',
    (p) =>
      `up to ${p.e2e.maxSteps} steps of ${seconds(p.e2e.stepDurationMs)}, ${p.e2e.search.minPerSec}-${count(p.e2e.search.maxPerSec)}/s to within ${p.e2e.search.resolutionPerSec}/s, ` +
      `no new step after ${seconds(p.e2e.searchBudgetMs)}; each run's orders given ${seconds(p.e2e.settleMs)} to finish`,
  ],
  ['overload', (p) => `${seconds(p.e2e.overloadDurationMs)} at each multiple of the maximum`],
  ['backlog drain', (p) => `${count(p.drain.orders)} orders, deadline ${seconds(p.drain.timeoutMs)}`],
  [
    'layers',
    (p) =>
      `a fresh loop per pass (each layer off alone, beside a pass with every layer on): ${p.e2e.fixedPerSec}/s for ${seconds(p.layers.warmUpMs)} unmeasured, then ${seconds(p.layers.durationMs)} measured`,
  ],
];

export function renderBenchSizes(): string {
  return [
    '| section | quick (`--quick`) | full |',
    '|---|---|---|',
    ...ROWS.map(([section, describe]) => `| ${section} | ${describe(QUICK)} | ${describe(FULL)} |`),
  ].join('\n');
}
