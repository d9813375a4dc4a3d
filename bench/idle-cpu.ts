// Idle CPU of each process of the loop: the three apps started as the end-to-end figure starts them,
// 150 orders/s for 30 s so that their JIT has compiled the hot paths, every order settled, then the
// CPU each process used over 30 s windows with no request at all, from /proc. What it shows is the
// cost of everything that wakes a process without work (timers, polls, probes, heartbeats,
// long-poll fetches), which every order pays a share of at a moderate rate: x % of a core idle is
// x / 100 × 1000 / rate ms per order at that rate. Postgres (the loop's databases' backends and the
// server's own processes) and the broker are counted too; the broker's own idle, with no client,
// is most of its figure. Run after a build: `node dist/bench/idle-cpu.js`; BENCH_APP_ENV applies.
import { benchServices, provisionInfrastructure, releaseInfrastructure } from './bench-infrastructure.js';
import { LOAD_GENERATOR, loopProcesses, runE2eRate, startLoop, waitUntilIdle } from './end-to-end.bench.js';
import { ProcessSampler } from './process-usage.js';

const WARM_UP = { offeredPerSec: 150, durationMs: 30_000, settleMs: 60_000 };
const WINDOW_MS = 30_000;
const WINDOWS = 2;
/** The rate the per-order share is stated at: the warm-up's, the end-to-end figure's fixed rate. */
const SHARE_AT_PER_SEC = WARM_UP.offeredPerSec;

const log = (text: string) => console.error(`[idle-cpu] ${text}`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const infrastructure = await provisionInfrastructure(log);
  const services = benchServices(infrastructure);
  try {
    const stack = await startLoop(infrastructure, services);
    await runE2eRate(stack, WARM_UP, log);
    if (!(await waitUntilIdle(stack, WARM_UP.settleMs))) throw new Error('the warm-up did not settle');
    // Whatever the last orders scheduled (a linger, a paced commit) runs out first.
    await pause(5000);
    // Every process of the loop, as the end-to-end figure counts them; this process is not part of it.
    const groups = Object.fromEntries(Object.entries(loopProcesses(stack)).filter(([name]) => name !== LOAD_GENERATOR));
    const percents: Record<string, number[]> = {};
    for (let window = 0; window < WINDOWS; window += 1) {
      const sampler = new ProcessSampler(groups);
      await sampler.start();
      await pause(WINDOW_MS);
      for (const [name, { cpuMs }] of Object.entries(await sampler.stop())) (percents[name] ??= []).push((cpuMs / WINDOW_MS) * 100);
    }
    console.log(
      `| process | idle CPU, % of a core (${WINDOWS} windows of ${WINDOW_MS / 1000} s) | ms per order at ${SHARE_AT_PER_SEC}/s |`,
    );
    console.log('|---|---:|---:|');
    let total = 0;
    for (const [name, values] of Object.entries(percents)) {
      const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
      total += mean;
      console.log(`| ${name} | ${values.map((value) => value.toFixed(2)).join(', ')} | ${((mean * 10) / SHARE_AT_PER_SEC).toFixed(2)} |`);
    }
    console.log(`| **total** | ${total.toFixed(2)} (mean) | ${((total * 10) / SHARE_AT_PER_SEC).toFixed(2)} |`);
  } finally {
    await services.tearDown();
    await releaseInfrastructure(infrastructure);
  }
}

await main();
