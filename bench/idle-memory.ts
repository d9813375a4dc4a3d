// Idle resident memory of each app: the three services started as the end-to-end figure
// starts them (one process each, APP_NODE_FLAGS, fresh databases, migrated), left idle, then their
// RSS read from /proc several times and the median kept. No load: what a running service costs
// before its first order. Run after a build: `node dist/bench/idle-memory.js`; BENCH_APP_ENV (a JSON
// object) adds variables to every app, e.g. '{"OTEL_EXPORTER_OTLP_ENDPOINT":"http://127.0.0.1:4318"}'
// to see what span export costs.
import { loadConfig } from '@libs/config';
import { benchAppEnv, benchServices, provisionInfrastructure, releaseInfrastructure } from './bench-infrastructure.js';
import { benchEnv } from './bench.env.js';
import { IDLE_RSS_READINGS, idleRssMb } from './idle-rss.js';

const { IDLE_SETTLE_MS: SETTLE_MS } = loadConfig({ IDLE_SETTLE_MS: benchEnv.IDLE_SETTLE_MS });

const log = (text: string) => console.error(`[idle-memory] ${text}`);

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
    log(`started; idle for ${SETTLE_MS / 1000} s, then ${IDLE_RSS_READINGS.samples} samples`);
    const idle = await idleRssMb(
      { orders: orders.process.child.pid!, inventory: inventory.process.child.pid!, loyalty: loyalty.process.child.pid! },
      { settleMs: SETTLE_MS, ...IDLE_RSS_READINGS },
    );
    console.log(`| app | idle RSS, MB (median of ${IDLE_RSS_READINGS.samples}) |\n|---|---:|`);
    for (const [name, value] of Object.entries(idle)) console.log(`| ${name} | ${value.toFixed(1)} |`);
  } finally {
    await services.tearDown();
    await releaseInfrastructure(infrastructure);
  }
}

await main();
