// `npm run bench` (full) and `npm run bench -- --quick` (about five minutes, plus the layer passes): every figure of
// the benchmark suite in one run, each a ratio against a baseline measured in the same run or a percentile at
// a fixed offered rate, written to bench/results/latest.json, latest.md and latency-vs-load.svg.
// Infrastructure is provisioned as the tests do; every database is a throw-away one (its name
// contains `test`) and is dropped at the end, with every process, consumer group and topic the run
// made. Nothing here asserts a speed: the figures are read, compared, and written down.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { dropUndroppedTestDatabases, parseCommandLine, queryTestDatabase, type ServiceProcess } from '@tools/local-stack';
import { loadConfig } from '@libs/config';
import {
  appMemoryPlaceholder,
  backlogDrainPlaceholder,
  type BenchResults,
  type E2eRun,
  loopCpuPlaceholder,
  peakRssAtMaximum,
  resultsShapeProblems,
  toJson,
} from './bench-results.js';
import {
  benchAppEnv,
  benchServices,
  type BenchInfrastructure,
  postgresVersion,
  projectKafkaVersion,
  provisionInfrastructure,
  releaseInfrastructure,
} from './bench-infrastructure.js';
import {
  type BenchProfile,
  FULL,
  needsLoyalty,
  needsStack,
  OVERLOAD_MULTIPLES,
  QUICK,
  SECTIONS,
  selectedSections,
  type SoakOptions,
  soakOptions,
  withFixedRate,
} from './bench-profiles.js';
import { type AutovacuumState, autovacuumAsInProduction } from './autovacuum-as-in-production.js';
import { runBacklogDrain } from './backlog-drain.bench.js';
import { BENCH_LAYERS } from './bench-layers.js';
import { benchEnv } from './bench.env.js';
import { type E2eStack, runE2eRate, startE2eStack, startLoop, waitUntilIdle } from './end-to-end.bench.js';
import { IDLE_RSS_READINGS, idleRssMb } from './idle-rss.js';
import { runInboxBench } from './inbox-consumer.bench.js';
import { latencyChartSvg } from './latency-chart.js';
import { runLayerPasses } from './layers.bench.js';
import { runRelayBench } from './outbox-relay.bench.js';
import { runHttpBench } from './place-order-http.bench.js';
import { isSustained, maxSustained, nextOfferedRate, type RateTrial } from './rate-search.js';
import { resultsMarkdown } from './results-markdown.js';
import { judgeTargets } from './targets.js';
import { runSoak, SOAK_SAMPLE_INTERVAL_MS } from './soak.bench.js';
import { soakChartSvg } from './soak-chart.js';
import { driftVerdict, soakDrift } from './soak-drift.js';
import { sampleDeadTuples, type SoakResults, soakShapeProblems } from './soak-results.js';
import { type WarmUp, warmUpSettled, warmUpSummary } from './warm-up.js';

const { values: flags } = parseCommandLine({
  name: 'bench',
  usage: 'npm run bench --',
  summary:
    'Every figure of the benchmark suite in one run (full: about 13 minutes), written to bench/results/latest.json, latest.md and latency-vs-load.svg.',
  flags: {
    quick: { type: 'boolean', description: 'the short profile (about five minutes, plus a short pass per speed-up layer)' },
    only: { type: 'string', placeholder: SECTIONS.join(','), description: 'run only these sections (comma-separated)' },
    soak: { type: 'string', placeholder: 'minutes', description: 'a soak instead of the suite: 70 % of the maximum rate for this long' },
    rate: {
      type: 'string',
      placeholder: 'orders/s',
      description: "with --soak: the maximum rate it takes 70 % of (default: latest.json's)",
    },
    'fixed-rate': {
      type: 'string',
      placeholder: 'orders/s',
      description:
        "the end-to-end figure's fixed rate, warm-up included (default 150): below the knee of a slower machine, to compare a change at a moderate load",
    },
    'warm-up': {
      type: 'string',
      placeholder: 'seconds',
      description:
        `load at the fixed rate before the warm-up's measured windows (quick ${QUICK.e2e.warmUpMs / 1000}, full ${FULL.e2e.warmUpMs / 1000}), ` +
        `which then go on until the loop's CPU per order stops falling (at most quick ${QUICK.e2e.warmUpMaxMs / 1000}, full ${FULL.e2e.warmUpMaxMs / 1000})`,
    },
  },
});
const sections = (() => {
  try {
    return selectedSections(flags.only);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exit(2);
  }
})();

const { IDLE_SETTLE_MS } = loadConfig({ IDLE_SETTLE_MS: benchEnv.IDLE_SETTLE_MS });

/** `orders 131 MB, inventory 128 MB, ...`: a figure per app for the log. */
const describeMb = (figures: Record<string, number>) =>
  Object.entries(figures)
    .map(([app, mb]) => `${app} ${mb.toFixed(0)} MB`)
    .join(', ');

const suiteStart = Date.now();
const log = (text: string) => console.error(`[bench ${((Date.now() - suiteStart) / 1000).toFixed(0).padStart(4)} s] ${text}`);

/**
 * Loads the loop at the fixed rate until it is warm: a first stretch not measured (JIT, pools, first
 * fetches), then windows until their CPU per order settles or the cap is reached. A loop just
 * started spends its first minutes compiling, and a CPU figure taken in them is the warm-up's.
 */
async function warmUpLoop(stack: E2eStack, profile: BenchProfile): Promise<WarmUp> {
  const { e2e } = profile;
  const rate = (durationMs: number) => runE2eRate(stack, { offeredPerSec: e2e.fixedPerSec, durationMs, settleMs: e2e.settleMs }, log);
  await rate(e2e.warmUpMs);
  const warmUp: WarmUp = { initialMs: e2e.warmUpMs, windowMs: e2e.warmUpWindowMs, cpuMsPerOrder: [], settled: false };
  while (!warmUp.settled && (warmUp.cpuMsPerOrder.length + 1) * e2e.warmUpWindowMs <= e2e.warmUpMaxMs) {
    warmUp.cpuMsPerOrder.push((await rate(e2e.warmUpWindowMs)).cpu.totalMsPerOrder);
    warmUp.settled = warmUpSettled(warmUp.cpuMsPerOrder);
  }
  log(warmUpSummary(warmUp));
  return warmUp;
}

async function runE2e(stack: E2eStack, profile: BenchProfile, results: BenchResults): Promise<void> {
  const { e2e } = profile;
  const runs: E2eRun[] = [];
  results.e2e.warmUp = await warmUpLoop(stack, profile);
  if (!results.e2e.warmUp.settled) results.notes.push(`The end-to-end ${warmUpSummary(results.e2e.warmUp)}.`);
  await waitUntilIdle(stack, e2e.settleMs);
  // The search's budget is its own: timed from the suite's start, it was spent by the sections
  // before it on a machine with a cold broker, and a quick run then reported no maximum at all;
  // timed with the warm-up, a slow machine's longer warm-up would leave the search no steps.
  const sectionStart = Date.now();
  const fixed = await runE2eRate(stack, { offeredPerSec: e2e.fixedPerSec, durationMs: e2e.fixedDurationMs, settleMs: e2e.settleMs }, log);
  runs.push(fixed);
  results.processes = fixed.processes;
  results.cpu = fixed.cpu;
  results.e2e.runs = runs;
  const trials: RateTrial[] = [{ offeredPerSec: fixed.offeredPerSec, sustained: isSustained(fixed) }];
  for (let step = 0; step < e2e.maxSteps; step += 1) {
    const next = nextOfferedRate(trials, e2e.search);
    if (next === undefined) break;
    if (Date.now() - sectionStart > e2e.searchBudgetMs) {
      results.notes.push(`The rate search stopped after ${step} step(s): the ${profile.mode} run's time budget was spent.`);
      break;
    }
    // Each step starts from an idle loop, or its backlog would be the previous step's.
    if (!(await waitUntilIdle(stack, e2e.settleMs))) {
      results.notes.push(
        `The rate search stopped before ${next}/s: the loop did not finish the previous run's backlog within ${e2e.settleMs / 1000} s.`,
      );
      break;
    }
    const run = await runE2eRate(stack, { offeredPerSec: next, durationMs: e2e.stepDurationMs, settleMs: e2e.settleMs }, log);
    runs.push(run);
    trials.push({ offeredPerSec: next, sustained: isSustained(run) });
  }
  for (const run of runs.filter((r) => r.finalTimestampNotMoved > 0)) {
    results.notes.push(
      `At ${run.offeredPerSec}/s, ${run.finalTimestampNotMoved} final orders kept updated_at = created_at: the status change no longer sets updated_at, so those latencies are wrong.`,
    );
  }
  results.e2e.maxSustainablePerSec = maxSustained(trials);
  const failed = trials.filter((trial) => !trial.sustained).map((trial) => trial.offeredPerSec);
  if (results.e2e.maxSustainablePerSec === 0)
    results.notes.push(`No offered rate tried (${trials.map((t) => t.offeredPerSec).join(', ')}/s) was sustained.`);
  else if (failed.length === 0)
    results.notes.push(`Every rate tried was sustained; the highest sustainable rate is at least ${results.e2e.maxSustainablePerSec}/s.`);
}

/**
 * 2x and 4x the sustained maximum (the fixed rate when the search did not run): goodput is what
 * finishes per second, shed share the 503s of the door, and every accepted order must be final
 * once the run settled.
 */
async function runOverload(stack: E2eStack, profile: BenchProfile, results: BenchResults): Promise<void> {
  const maximum = results.e2e.maxSustainablePerSec > 0 ? results.e2e.maxSustainablePerSec : profile.e2e.fixedPerSec;
  if (results.e2e.maxSustainablePerSec <= 0)
    results.notes.push(`Overload runs are multiples of the fixed rate (${maximum}/s): no sustained maximum was measured.`);
  for (const multiple of OVERLOAD_MULTIPLES) {
    if (!(await waitUntilIdle(stack, profile.e2e.settleMs))) {
      results.notes.push(`The overload run at ${multiple}x did not start: the loop did not finish the previous backlog in time.`);
      break;
    }
    const offeredPerSec = maximum * multiple;
    const run = await runE2eRate(stack, { offeredPerSec, durationMs: profile.e2e.overloadDurationMs, settleMs: profile.e2e.settleMs }, log);
    results.overload.push({
      multiple,
      offeredPerSec,
      goodputPerSec: run.achievedPerSec,
      shedShare: run.sent > 0 ? run.shedRequests / run.sent : Number.NaN,
      shedBySignal: run.shedBySignal,
      acceptedPerSec: run.acceptedPerSec,
      lostAccepted: run.unfinished,
      p99Ms: run.p99Ms,
      answerP99Ms: run.answerP99Ms,
    });
    if (run.unfinished > 0)
      results.notes.push(`At ${multiple}x (${offeredPerSec}/s), ${run.unfinished} accepted orders were not final when the run settled.`);
  }
}

async function machineFacts(infrastructure: BenchInfrastructure, autovacuum: AutovacuumState): Promise<BenchResults['machine']> {
  return {
    cpuCount: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    nodeVersion: process.version,
    kafkaVersion: `${projectKafkaVersion(infrastructure.repoRoot)} (infra/kafka/pom.xml; broker ${infrastructure.kafkaSource})`,
    postgresVersion: await postgresVersion(infrastructure.serverUrl),
    platform: `${platform()} ${release()}`,
    totalMemoryMb: Math.round(totalmem() / 2 ** 20),
    loadAverageAtStart: loadavg(),
    postgresAutovacuum: autovacuum,
  };
}

/** Runs `section`; a failure is logged and noted, and the suite goes on to the next figure. */
async function section(results: BenchResults, name: string, work: () => Promise<void>): Promise<boolean> {
  log(`${name}: start`);
  try {
    await work();
    return true;
  } catch (error) {
    log(`${name} FAILED: ${(error as Error).stack ?? String(error)}`);
    results.notes.push(`${name} failed: ${(error as Error).message.split('\n')[0]}`);
    process.exitCode = 1;
    return false;
  }
}

/** The maximum a soak takes its share of: `--rate`, else the last run's sustained maximum, else the fixed rate. */
function soakMaximum(repoRoot: string, options: SoakOptions, profile: BenchProfile): { perSec: number; source: string } {
  if (options.ratePerSec !== undefined) return { perSec: options.ratePerSec, source: `--rate=${options.ratePerSec}` };
  const file = join(repoRoot, 'bench/results/latest.json');
  const last = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { e2e?: { maxSustainablePerSec?: number } }) : undefined;
  const measured = last?.e2e?.maxSustainablePerSec;
  if (typeof measured === 'number' && measured > 0)
    return { perSec: measured, source: 'the sustained maximum of bench/results/latest.json' };
  return { perSec: profile.e2e.fixedPerSec, source: `the fixed rate (${profile.e2e.fixedPerSec}/s; no measured maximum, pass --rate)` };
}

async function soakMain(options: SoakOptions, profile: BenchProfile): Promise<void> {
  const infrastructure = await provisionInfrastructure(log);
  const services = benchServices(infrastructure);
  const maximum = soakMaximum(infrastructure.repoRoot, options, profile);
  const offeredPerSec = Math.max(1, Math.round(maximum.perSec * options.share));
  const autovacuum = await autovacuumAsInProduction(infrastructure.serverUrl, log);
  log(`soak: ${options.minutes} min at ${offeredPerSec}/s (${options.share * 100} % of ${maximum.source}); ${autovacuum.state.note}`);
  const results: SoakResults = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    minutes: options.minutes,
    offeredPerSec,
    rateSource: `${options.share * 100} % of ${maximum.source}`,
    appEnv: benchAppEnv(),
    autovacuum: autovacuum.state,
    isSoak: autovacuum.state.on,
    sent: 0,
    accepted: 0,
    failedRequests: 0,
    shedRequests: 0,
    unfinished: Number.NaN,
    samples: [],
    notes: autovacuum.state.on ? [] : ['Not a soak: autovacuum was off for the whole run, so dead tuples could only grow.'],
  };
  try {
    const stack = await startLoop(infrastructure, services);
    Object.assign(
      results,
      await runSoak(stack, { offeredPerSec, durationMs: options.minutes * 60_000, sampleIntervalMs: SOAK_SAMPLE_INTERVAL_MS }, log),
    );
    await waitUntilIdle(stack, profile.e2e.settleMs);
    const [{ pending }] = await queryTestDatabase<{ pending: number }>(
      infrastructure.serverUrl,
      stack.databases.orders,
      "SELECT count(*)::int AS pending FROM orders WHERE status = 'PENDING'",
    );
    results.unfinished = pending;
  } catch (error) {
    log(`soak FAILED: ${(error as Error).stack ?? String(error)}`);
    results.notes.push(`The soak failed: ${(error as Error).message.split('\n')[0]}`);
    process.exitCode = 1;
  } finally {
    await autovacuum.restore();
    results.finishedAt = new Date().toISOString();
    writeSoak(infrastructure.repoRoot, results);
    await services.tearDown().catch((error: Error) => log(`tear-down: ${error.message}`));
    await releaseInfrastructure(infrastructure);
  }
}

function writeSoak(repoRoot: string, results: SoakResults): void {
  const directory = join(repoRoot, 'bench/results');
  mkdirSync(directory, { recursive: true });
  const problems = soakShapeProblems(JSON.parse(JSON.stringify(results)));
  if (problems.length > 0) results.notes.push(`Figures missing from this soak: ${problems.join('; ')}.`);
  results.drift = soakDrift(results.samples, results.minutes);
  if (results.drift) {
    const verdict = driftVerdict(results.drift);
    log(`soak drift: ${verdict}`);
    results.notes.push(`Drift: ${verdict}.`);
  }
  const minutes = results.samples.map((sample) => sample.atMinutes);
  const tableNames = [...new Set(results.samples.flatMap((sample) => Object.keys(sample.tables)))].sort();
  const apps = [...new Set(results.samples.flatMap((sample) => Object.keys(sample.rssMb)))];
  const svg = soakChartSvg(
    minutes,
    [
      {
        title: 'created → final p99 of the orders finished since the previous sample',
        unit: 'ms',
        series: [{ label: 'p99', values: results.samples.map((s) => s.p99Ms) }],
      },
      {
        title: 'CPU per order finished since the previous sample, each process of the loop',
        unit: 'ms',
        series: [...new Set(results.samples.flatMap((sample) => Object.keys(sample.cpu?.byProcess ?? {})))].map((name) => ({
          label: name,
          values: results.samples.map((s) => s.cpu?.byProcess[name] ?? Number.NaN),
        })),
      },
      {
        title: 'resident memory',
        unit: 'MB',
        series: apps.map((app) => ({ label: app, values: results.samples.map((s) => s.rssMb[app]) })),
      },
      {
        title: 'dead tuples (mean of the readings since the previous sample)',
        unit: 'rows',
        series: tableNames.map((name) => ({
          label: name,
          values: results.samples.map((s) => sampleDeadTuples(s, name) ?? Number.NaN),
        })),
      },
      {
        title: 'WAL written per order finished (the server, every database)',
        unit: 'kB',
        series: [
          { label: 'WAL', values: results.samples.map((s) => (s.server?.walBytesPerOrder ?? Number.NaN) / 1024) },
          {
            label: 'full page images × 8 kB',
            values: results.samples.map((s) => ((s.server?.walFullPageImagesPerOrder ?? Number.NaN) * 8192) / 1024),
          },
        ],
      },
      {
        title: 'rows held (count)',
        unit: 'rows',
        series: tableNames.map((name) => ({ label: name, values: results.samples.map((s) => s.tables[name]?.rows ?? Number.NaN) })),
      },
    ],
    `Soak ${results.startedAt.slice(0, 16)}: ${results.offeredPerSec}/s for ${results.minutes} min${results.isSoak ? '' : ' (NOT a soak: autovacuum off)'}`,
  );
  writeFileSync(join(directory, 'soak.svg'), svg);
  writeFileSync(
    join(directory, 'soak.json'),
    `${JSON.stringify(results, (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`,
  );
  log('wrote bench/results/soak.json and soak.svg');
}

async function main(): Promise<void> {
  const profile = withFixedRate(flags.quick ? QUICK : FULL, flags['fixed-rate'], flags['warm-up']);
  const soak = soakOptions(flags.soak, flags.rate);
  if (soak) return soakMain(soak, profile);
  log(`${profile.mode} run: ${[...sections].join(', ')}`);
  const infrastructure = await provisionInfrastructure(log);
  const services = benchServices(infrastructure);
  // Production runs autovacuum; a run without it measures its last sections (overload, drain)
  // against tables bloated by every section before them.
  const autovacuum = await autovacuumAsInProduction(infrastructure.serverUrl, log);
  log(autovacuum.state.note);
  let stopping: Promise<void> | undefined;
  const cleanUp = () =>
    (stopping ??= (async () => {
      await services.tearDown().catch((error: Error) => log(`tear-down: ${error.message}`));
      await autovacuum.restore();
      // Also what a section made on its own (the relay figure's database) and had not dropped yet.
      const dropped = await dropUndroppedTestDatabases().catch((error: Error) => log(`dropping databases: ${error.message}`));
      if (dropped?.length) log(`dropped ${dropped.join(', ')}`);
      await releaseInfrastructure(infrastructure).catch((error: Error) => log(`releasing the infrastructure: ${error.message}`));
    })());
  // Ctrl-C, or a supervisor's SIGTERM: the run's databases, processes and broker go with it. The
  // exit waits for the clean-up; a second signal of the same kind ends the process at once.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping the run's processes and dropping its databases`);
      void cleanUp().finally(() => process.exit(code));
    });
  }
  const nan = Number.NaN;
  const results: BenchResults = {
    mode: profile.mode,
    startedAt: new Date(suiteStart).toISOString(),
    finishedAt: '',
    machine: await machineFacts(infrastructure, autovacuum.state),
    relay: { ratio: nan, baselinePerSec: nan, relayPerSec: nan, messages: 0, batchSize: 0, repetitions: 0 },
    inbox: {
      ratio: nan,
      inventoryPerSec: nan,
      plainPerSec: nan,
      fullAppPerSec: nan,
      fullAppRatio: nan,
      oneByOnePerSec: nan,
      oneByOneRatio: nan,
      messages: profile.inbox.messages,
      plainConcurrency: profile.inbox.plainConcurrency,
    },
    http: {
      withOutboxPerSec: nan,
      withoutOutboxPerSec: nan,
      dualWritePerSec: nan,
      plainWithOutboxPerSec: nan,
      concurrency: profile.http.concurrency,
      durationSec: profile.http.durationMs / 1000,
      rounds: profile.http.rounds,
    },
    e2e: { runs: [], maxSustainablePerSec: 0, drainPerSec: nan, drain: backlogDrainPlaceholder() },
    overload: [],
    layers: [],
    processes: { orders: {}, inventory: {}, loyalty: {} },
    memory: appMemoryPlaceholder(),
    cpu: loopCpuPlaceholder(cpus().length),
    targets: [],
    notes: [],
  };
  try {
    if (sections.has('relay'))
      await section(results, 'relay', async () => {
        const relay = await runRelayBench(infrastructure.serverUrl, infrastructure.brokers, { ...profile.relay, ...process.env });
        results.relay = {
          ratio: relay.ratio,
          baselinePerSec: relay.baselinePerSec,
          relayPerSec: relay.relayPerSec,
          messages: relay.messages,
          batchSize: relay.batchSize,
          repetitions: relay.repetitions,
        };
      });
    // One loyalty process serves the inbox and the end-to-end figures, as one would in production.
    let loyalty: ServiceProcess | undefined;
    if (needsLoyalty(sections))
      await section(results, 'loyalty start', async () => {
        loyalty = await services.start({
          service: 'loyalty',
          database: await services.createDatabase('bench_loyalty'),
          env: benchAppEnv(),
        });
      });
    if (loyalty && sections.has('inbox')) {
      const loyaltyUrl = loyalty.baseUrl;
      await section(results, 'inbox', async () => {
        results.inbox = { ...results.inbox, ...(await runInboxBench(infrastructure, services, loyaltyUrl, profile.inbox, log)) };
      });
    }
    if (sections.has('http'))
      await section(results, 'http', async () => {
        results.http = { ...results.http, ...(await runHttpBench(infrastructure, services, profile.http, log)) };
      });
    let stack: E2eStack | undefined;
    if (loyalty && needsStack(sections)) {
      const running = loyalty;
      await section(results, 'end to end', async () => {
        stack = await startE2eStack(infrastructure, services, running);
        results.memory.idleRssMb = await idleRssMb(
          { orders: stack.orders.process.child.pid!, inventory: stack.inventory.process.child.pid!, loyalty: running.process.child.pid! },
          { settleMs: IDLE_SETTLE_MS, ...IDLE_RSS_READINGS },
        );
        log(`idle RSS before the load: ${describeMb(results.memory.idleRssMb)}`);
        if (sections.has('e2e')) {
          await runE2e(stack, profile, results);
          results.memory.peakRssMbAtMaximum = peakRssAtMaximum(results.e2e);
        }
      });
      if (stack && sections.has('overload')) {
        const started = stack;
        await section(results, 'overload', () => runOverload(started, profile, results));
      }
      if (stack && sections.has('drain')) {
        const started = stack;
        await section(results, 'backlog drain', async () => {
          // No wait for an idle loop first: the drain counts every order pending at inventory's
          // restart, so whatever the last end-to-end step left behind is part of its backlog.
          const drain = await runBacklogDrain(started, profile.drain, log);
          if (!drain.complete) {
            results.notes.push(
              `The backlog drain did not finish within ${profile.drain.timeoutMs / 1000} s: drainPerSec is the rate of the ${drain.finished} of ${drain.orders} orders finished by then.`,
            );
          }
          if (drain.doorClosed) {
            results.notes.push(
              `The backlog drain placed ${drain.placedWhileStopped} of ${profile.drain.orders} orders: orders shed the rest for its pending backlog (ORDERS_SHED_PENDING_MAX), as deployed, and the drain is of what it let in.`,
            );
          }
          if (drain.orders > drain.placedWhileStopped) {
            results.notes.push(
              `The drained backlog includes ${drain.orders - drain.placedWhileStopped} orders the end-to-end runs left unfinished.`,
            );
          }
          results.e2e.drainPerSec = drain.drainPerSec;
          results.e2e.drain = {
            orders: drain.orders,
            placedWhileStopped: drain.placedWhileStopped,
            doorClosed: drain.doorClosed,
            complete: drain.complete,
            finished: drain.finished,
            seconds: drain.seconds,
            inventoryStartSec: drain.inventoryStartSec,
            ordersFinishedSec: drain.ordersFinishedSec,
            loyaltyDoneSec: drain.loyaltyDoneSec,
          };
        });
      }
    }
    if (sections.has('layers'))
      await section(results, 'layers', async () => {
        // The end-to-end stack's inventory would consume the passes' orders too: stopped first.
        if (stack) await Promise.all([stack.orders.stop(), stack.inventory.stop()]);
        results.layers = await runLayerPasses(
          infrastructure,
          services,
          BENCH_LAYERS,
          { offeredPerSec: profile.e2e.fixedPerSec, settleMs: profile.e2e.settleMs, ...profile.layers },
          log,
        );
      });
  } finally {
    results.finishedAt = new Date().toISOString();
    // Before the results are written, so that they say whether the server got its setting back.
    await autovacuum.restore();
    await writeResults(infrastructure.repoRoot, results);
    await cleanUp();
  }
  log(`done in ${((Date.now() - suiteStart) / 1000).toFixed(0)} s`);
}

async function writeResults(repoRoot: string, results: BenchResults): Promise<void> {
  const directory = join(repoRoot, 'bench/results');
  mkdirSync(directory, { recursive: true });
  results.targets = judgeTargets(results);
  const problems = resultsShapeProblems(JSON.parse(toJson(results)));
  if (problems.length > 0) results.notes.push(`Figures missing from this run: ${problems.join('; ')}.`);
  const chartFile = 'latency-vs-load.svg';
  const title = `End to end, ${results.mode} run ${results.startedAt.slice(0, 10)}: ${results.machine.cpuCount} × ${results.machine.cpuModel}`;
  writeFileSync(join(directory, chartFile), latencyChartSvg(results.e2e.runs, title));
  writeFileSync(join(directory, 'latest.json'), `${toJson(results)}\n`);
  writeFileSync(join(directory, 'latest.md'), resultsMarkdown(results, chartFile));
  console.log(resultsMarkdown(results, chartFile));
  log(`wrote ${join('bench/results', 'latest.json')}, latest.md and ${chartFile}`);
}

try {
  await main();
} catch (error) {
  console.error(`[bench] ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
}
