// Idle resident memory of each app: the three services started as the end-to-end figure
// starts them (one process each, APP_NODE_FLAGS, fresh databases, migrated), left idle, then their
// RSS read from /proc several times and the median kept. No load: what a running service costs
// before its first order. Run after a build: `node dist/bench/idle-memory.js`; BENCH_APP_ENV (a JSON
// object) adds variables to every app, e.g. '{"OTEL_EXPORTER_OTLP_ENDPOINT":"http://127.0.0.1:4318"}'
// to see what span export costs.
import { readFileSync } from 'node:fs';
import { loadConfig } from '@app/config';
import { benchAppEnv, benchServices, provisionInfrastructure, releaseInfrastructure } from './bench-infrastructure.js';
import { benchEnv } from './bench.env.js';
import { median } from './percentiles.js';

const { IDLE_SETTLE_MS: SETTLE_MS } = loadConfig({ IDLE_SETTLE_MS: benchEnv.IDLE_SETTLE_MS });
const SAMPLES = 10;
const SAMPLE_INTERVAL_MS = 500;

const log = (text: string) => console.error(`[idle-memory] ${text}`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS of `pid` in MB. */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

async function main(): Promise<void> {
  const extraEnv = benchAppEnv();
  const infrastructure = await provisionInfrastructure(log);
  const services = benchServices(infrastructure);
  try {
    const loyalty = await services.start({ service: 'loyalty', database: await services.createDatabase('idle_loyalty'), env: extraEnv });
    const inventory = await services.start({
      service: 'inventory',
      database: await services.createDatabase('idle_inventory'),
      env: { ...extraEnv, LOYALTY_BASE_URL: loyalty.baseUrl },
    });
    const orders = await services.start({ service: 'orders', database: await services.createDatabase('idle_orders'), env: extraEnv });
    const apps = { orders, inventory, loyalty };
    log(`started; idle for ${SETTLE_MS / 1000} s, then ${SAMPLES} samples`);
    await pause(SETTLE_MS);
    const samples: Record<string, number[]> = { orders: [], inventory: [], loyalty: [] };
    for (let i = 0; i < SAMPLES; i += 1) {
      for (const [name, app] of Object.entries(apps)) samples[name].push(rssMb(app.process.child.pid!));
      await pause(SAMPLE_INTERVAL_MS);
    }
    console.log(`| app | idle RSS, MB (median of ${SAMPLES}) |\n|---|---:|`);
    for (const [name, values] of Object.entries(samples)) console.log(`| ${name} | ${median(values).toFixed(1)} |`);
  } finally {
    await services.tearDown();
    await releaseInfrastructure(infrastructure);
  }
}

await main();
