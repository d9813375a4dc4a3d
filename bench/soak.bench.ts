// `npm run bench -- --soak <minutes> [--rate=<n>]`: a steady 70 % of the maximum for that long,
// sampled every 30 s: created → final p99, RSS per app, the live and dead rows and autovacuum runs
// of the tables that grow with every order (outbox, inbox, commands, idempotency keys), and the WAL
// the server wrote per order (server-writes.ts), and the CPU each process of the loop spent per order
// finished (loop-cpu.ts). What a soak finds is a slope: memory, dead tuples,
// WAL or latency that keep rising at a rate the loop sustains. Autovacuum must run for that to mean anything; see autovacuum-as-in-production.ts.
import { cpus } from 'node:os';
import pg from 'pg';
import { databaseUrl } from '@libs/database';
import { type E2eStack, LOAD_GENERATOR, loopProcesses } from './end-to-end.bench.js';
import { loopCpu } from './loop-cpu.js';
import { openModelLoad } from './open-model-load.js';
import { orderBody, postOrder } from './order-requests.js';
import { summarizeLatencies } from './percentiles.js';
import { ProcessSampler, rssMb } from './process-usage.js';
import { DEAD_TUPLE_READ_INTERVAL_MS, ReadingMeans } from './reading-means.js';
import { readServerCounters, serverWrites } from './server-writes.js';
import type { SoakResults, SoakSample, TableSample } from './soak-results.js';

/** The tables that grow with every order, by the database role that holds them. */
const SOAK_TABLES: Record<'orders' | 'inventory' | 'loyalty', readonly string[]> = {
  orders: ['orders', 'outbox_messages', 'inbox_messages', 'idempotency_keys'],
  inventory: ['outbox_messages', 'inbox_messages', 'loyalty_commands'],
  loyalty: ['accruals', 'idempotency_keys'],
};

export const SOAK_SAMPLE_INTERVAL_MS = 30_000;

/** Waits until `atMs` (epoch ms), or less than 250 ms after `stopped()` turns true. */
async function waitUntil(atMs: number, stopped: () => boolean): Promise<void> {
  while (!stopped() && Date.now() < atMs) await new Promise((resolve) => setTimeout(resolve, 250));
}

/**
 * Reads `n_dead_tup` of the soak's tables every {@link DEAD_TUPLE_READ_INTERVAL_MS} into `means`
 * until `stop()`, over one connection per database (a few rows of pg_stat each time).
 */
function readDeadTuples(serverUrl: string, databases: Record<string, string>, means: ReadingMeans, log: (text: string) => void) {
  let reading = true;
  const done = (async () => {
    const clients = Object.entries(databases).map(([role, database]) => ({
      role,
      client: new pg.Client({ connectionString: databaseUrl(serverUrl, database), application_name: 'bench-observer' }),
    }));
    try {
      for (const { client } of clients) await client.connect();
      while (reading) {
        const readings: Record<string, number> = {};
        for (const { role, client } of clients) {
          const { rows } = await client.query<{ relname: string; dead: string }>(
            'SELECT relname, n_dead_tup::text AS dead FROM pg_stat_user_tables WHERE relname = ANY($1)',
            [SOAK_TABLES[role as keyof typeof SOAK_TABLES]],
          );
          for (const row of rows) readings[`${role}.${row.relname}`] = Number(row.dead);
        }
        means.add(readings);
        await waitUntil(Date.now() + DEAD_TUPLE_READ_INTERVAL_MS, () => !reading);
      }
    } catch (error) {
      log(`soak: dead tuples no longer read between samples: ${(error as Error).message}`);
    } finally {
      await Promise.all(clients.map(({ client }) => client.end().catch(() => undefined)));
    }
  })();
  return {
    stop: async () => {
      reading = false;
      await done;
    },
  };
}

async function tableStats(serverUrl: string, databases: Record<string, string>): Promise<Record<string, TableSample>> {
  const tables: Record<string, TableSample> = {};
  for (const [role, database] of Object.entries(databases)) {
    const client = new pg.Client({ connectionString: databaseUrl(serverUrl, database), application_name: 'bench-observer' });
    await client.connect();
    try {
      // The rows held are counted by the server's statistics, not by count(*): by minute 19 of a
      // soak, count(*) of orders' outbox alone (208,000 rows, 197 MB) took 436 ms of a core. Each
      // sample counted nine such tables, a burst that grew with them on a loop already using 86 %
      // of two cores: the observer itself drifted the p99 it was there to watch.
      const { rows } = await client.query<{ relname: string; held: string; live: string; dead: string; autovacuums: string }>(
        `SELECT relname, (n_tup_ins - n_tup_del)::text AS held, n_live_tup::text AS live, n_dead_tup::text AS dead,
           autovacuum_count::text AS autovacuums
         FROM pg_stat_user_tables WHERE relname = ANY($1)`,
        [SOAK_TABLES[role as keyof typeof SOAK_TABLES]],
      );
      for (const row of rows) {
        tables[`${role}.${row.relname}`] = {
          rows: Number(row.held),
          liveTuples: Number(row.live),
          deadTuples: Number(row.dead),
          autovacuumCount: Number(row.autovacuums),
        };
      }
    } finally {
      await client.end();
    }
  }
  return tables;
}

/** created → final latencies (ms) of the orders that became final in (sinceMs, untilMs], over `client` (orders' database). */
async function finishedLatencies(client: pg.Client, sinceMs: number, untilMs: number): Promise<number[]> {
  const { rows } = await client.query<{ ms: number }>(
    `SELECT (extract(epoch FROM updated_at - created_at) * 1000)::float8 AS ms FROM orders
     WHERE status IN ('RESERVED', 'REJECTED') AND updated_at > to_timestamp($1 / 1000.0) AND updated_at <= to_timestamp($2 / 1000.0)`,
    [sinceMs, untilMs],
  );
  return rows.map((row) => row.ms);
}

export interface SoakRunOptions {
  offeredPerSec: number;
  durationMs: number;
  sampleIntervalMs: number;
}

/** The load and the samples; the caller owns the stack, autovacuum and the file. */
export async function runSoak(
  stack: E2eStack,
  options: SoakRunOptions,
  log: (text: string) => void,
): Promise<Pick<SoakResults, 'sent' | 'accepted' | 'failedRequests' | 'shedRequests' | 'samples'>> {
  const databases = { orders: stack.databases.orders, inventory: stack.databases.inventory, loyalty: stack.loyalty.database };
  const pids = {
    orders: stack.orders.process.child.pid!,
    inventory: stack.inventory.process.child.pid!,
    loyalty: stack.loyalty.process.child.pid!,
  };
  const samples: SoakSample[] = [];
  const deadTupleMeans = new ReadingMeans();
  const deadTupleReader = readDeadTuples(stack.serverUrl, databases, deadTupleMeans, log);
  // One connection to orders' database for the whole soak: each sample's latencies and the server's counters.
  const observer = new pg.Client({ connectionString: databaseUrl(stack.serverUrl, databases.orders), application_name: 'bench-observer' });
  await observer.connect();
  let counters = await readServerCounters(observer);
  // CPU of every process of the loop over each sample's interval: a new sampler per interval.
  const processes = loopProcesses(stack);
  let usage = new ProcessSampler(processes);
  await usage.start();
  const start = Date.now();
  let last = start;
  let sampling = true;
  const sample = async () => {
    const now = Date.now();
    const latencies = await finishedLatencies(observer, last, now);
    const countersNow = await readServerCounters(observer);
    const used = await usage.stop();
    usage = new ProcessSampler(processes);
    await usage.start();
    const cpu = loopCpu(
      Object.fromEntries(Object.entries(used).map(([name, { cpuMs }]) => [name, cpuMs])),
      latencies.length,
      cpus().length,
      LOAD_GENERATOR,
    );
    last = now;
    const entry: SoakSample = {
      atMinutes: (now - start) / 60_000,
      finished: latencies.length,
      p99Ms: summarizeLatencies(latencies).p99,
      rssMb: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, rssMb(pid)])),
      tables: await tableStats(stack.serverUrl, databases),
      server: serverWrites(counters, countersNow, latencies.length),
      cpu: { totalMsPerOrder: cpu.totalMsPerOrder, byProcess: cpu.byProcess, loadGeneratorMsPerOrder: cpu.loadGeneratorMsPerOrder },
    };
    counters = countersNow;
    const means = deadTupleMeans.take();
    for (const [name, table] of Object.entries(entry.tables)) if (name in means) table.deadTuplesMean = means[name];
    samples.push(entry);
    const dead = Object.entries(entry.tables)
      .map(([name, table]) => `${name} ${table.deadTuples} (mean ${Math.round(table.deadTuplesMean ?? Number.NaN)})`)
      .join(', ');
    const { walBytesPerOrder, walFullPageImagesPerOrder, checkpoints } = entry.server!;
    const wal = `WAL ${Math.round(walBytesPerOrder)} B/order, ${walFullPageImagesPerOrder.toFixed(2)} full pages/order, ${checkpoints} checkpoint(s)`;
    const perProcess = Object.entries(cpu.byProcess)
      .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
      .join(', ');
    log(
      `soak ${entry.atMinutes.toFixed(1)} min: ${entry.finished} finished, p99 ${Math.round(entry.p99Ms)} ms; ` +
        `CPU ${cpu.totalMsPerOrder.toFixed(2)} ms/order (${perProcess}); ${wal}; dead tuples ${dead}`,
    );
  };
  const sampler = (async () => {
    while (sampling) {
      await waitUntil(last + options.sampleIntervalMs, () => !sampling);
      await sample().catch((error: Error) => log(`soak sample failed: ${error.message}`));
    }
  })();
  let load;
  try {
    load = await openModelLoad(options.offeredPerSec, options.durationMs, (index) =>
      postOrder(stack.orders.baseUrl, orderBody(index), stack.tokens),
    );
  } finally {
    sampling = false;
    await sampler;
    await usage.stop();
    await deadTupleReader.stop();
    await observer.end().catch(() => undefined);
  }
  const accepted = load.requests.filter((request) => request.result.orderId).length;
  const shedRequests = load.requests.filter((request) => request.result.status === 503).length;
  return { sent: load.requests.length, accepted, failedRequests: load.requests.length - accepted, shedRequests, samples };
}
