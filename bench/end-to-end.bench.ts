// End-to-end figure: one process per service as `npm start` runs them (default settings), driven by
// the open-model generator with Idempotency-Key. Per offered rate: achieved rate, latency from the
// scheduled send to the order's RESERVED/REJECTED commit (orders.updated_at), whether the backlog
// grew, the per-stage breakdown, and CPU ms per order and peak RSS of each process.
import { cpus } from 'node:os';
import pg from 'pg';
import { databaseUrl } from '@libs/database';
import { queryTestDatabase, type ServiceProcess, type ServiceSet, waitFor } from '@tools/local-stack';
import { type BacklogSample, backlogVerdict } from './backlog-trend.js';
import type { E2eRun, ProcessCost } from './bench-results.js';
import { loopCpu } from './loop-cpu.js';
import { brokerPorts, listeningPids, postgresPids } from './loop-processes.js';
import { benchAppEnv, type BenchInfrastructure } from './bench-infrastructure.js';
import { seedStock } from './inbox-consumer.bench.js';
import { openModelLoad } from './open-model-load.js';
import { CustomerTokens, orderBody, postOrder, seedBenchPrices } from './order-requests.js';
import { summarizeLatencies } from './percentiles.js';
import { ProcessSampler } from './process-usage.js';
import { stageLatencies } from './stage-latencies.js';
import { describeShed, readRequestCounts, requestsPerOrder, shedBetween } from './request-counts.js';

export interface E2eStack {
  orders: ServiceProcess;
  inventory: ServiceProcess;
  loyalty: ServiceProcess;
  databases: { orders: string; inventory: string };
  serverUrl: string;
  brokers: string[];
  tokens: CustomerTokens;
}

/** Inventory (seeded) and orders on fresh databases, calling the suite's loyalty process; `env` on top of the bench's. */
export async function startE2eStack(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  loyalty: ServiceProcess,
  env: Record<string, string> = {},
): Promise<E2eStack> {
  const databases = {
    orders: await services.createDatabase('bench_e2e_orders'),
    inventory: await services.createDatabase('bench_e2e_inventory'),
  };
  const inventory = await services.start({
    service: 'inventory',
    database: databases.inventory,
    env: { ...benchAppEnv(), ...env, LOYALTY_BASE_URL: loyalty.baseUrl },
  });
  await seedStock(infrastructure.serverUrl, databases.inventory);
  const orders = await services.start({ service: 'orders', database: databases.orders, env: { ...benchAppEnv(), ...env } });
  await seedBenchPrices(infrastructure.serverUrl, databases.orders);
  const tokens = await CustomerTokens.sign(infrastructure.issuer);
  return { orders, inventory, loyalty, databases, serverUrl: infrastructure.serverUrl, brokers: infrastructure.brokers, tokens };
}

/** Loyalty on a fresh database, then {@link startE2eStack} calling it: the whole loop, for a run that starts its own (a soak, the idle figure). */
export async function startLoop(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  env: Record<string, string> = {},
): Promise<E2eStack> {
  const loyalty = await services.start({
    service: 'loyalty',
    database: await services.createDatabase('bench_loyalty'),
    env: { ...benchAppEnv(), ...env },
  });
  return startE2eStack(infrastructure, services, loyalty, env);
}

/** The app processes by name (their CPU and RSS is also reported per app, as before). */
const APPS = ['orders', 'inventory', 'loyalty'] as const;

/** The bench process itself: the open-model load and the observers' queries, reported apart. */
export const LOAD_GENERATOR = 'loadGenerator';

/**
 * Every process of the loop: the three apps, Postgres (postmaster, background processes and the
 * backends of the run's databases) and the broker(s), plus the load generator, counted apart.
 */
export function loopProcesses(stack: E2eStack) {
  const databases = [stack.databases.orders, stack.databases.inventory, stack.loyalty.database];
  const brokerPids = listeningPids(brokerPorts(stack.brokers));
  return {
    orders: stack.orders.process.child.pid!,
    inventory: stack.inventory.process.child.pid!,
    loyalty: stack.loyalty.process.child.pid!,
    postgres: () => postgresPids(stack.serverUrl, databases),
    kafka: () => brokerPids,
    [LOAD_GENERATOR]: process.pid,
  };
}

/** Orders not yet final, and loyalty commands not yet DONE, among everything in the databases. */
async function unfinishedCounts(ordersDb: pg.Client, inventoryDb: pg.Client): Promise<{ orders: number; commands: number }> {
  const [orders, commands] = await Promise.all([
    ordersDb.query<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE status = 'PENDING'"),
    inventoryDb.query<{ n: number }>("SELECT count(*)::int AS n FROM loyalty_commands WHERE status = 'PENDING'"),
  ]);
  return { orders: orders.rows[0].n, commands: commands.rows[0].n };
}

/** Waits until nothing is unfinished, up to `timeoutMs`; false when the deadline passed first. */
export async function waitUntilIdle(stack: E2eStack, timeoutMs: number): Promise<boolean> {
  const [ordersDb, inventoryDb] = await connect(stack);
  try {
    await waitFor(
      async () => {
        const counts = await unfinishedCounts(ordersDb, inventoryDb);
        return counts.orders === 0 && counts.commands === 0;
      },
      { timeoutMs, intervalMs: 250, description: 'the loop to finish every order and loyalty command' },
    );
    return true;
  } catch {
    return false;
  } finally {
    await Promise.all([ordersDb.end(), inventoryDb.end()]);
  }
}

async function connect(stack: E2eStack): Promise<[pg.Client, pg.Client]> {
  const clients = [stack.databases.orders, stack.databases.inventory].map(
    (database) => new pg.Client({ connectionString: databaseUrl(stack.serverUrl, database), application_name: 'bench-observer' }),
  );
  await Promise.all(clients.map((client) => client.connect()));
  return clients as [pg.Client, pg.Client];
}

export interface E2eRunOptions {
  offeredPerSec: number;
  durationMs: number;
  /** How long to wait after the schedule for every accepted order to finish. */
  settleMs: number;
}

export async function runE2eRate(stack: E2eStack, options: E2eRunOptions, log: (text: string) => void): Promise<E2eRun> {
  const { offeredPerSec, durationMs, settleMs } = options;
  const sampler = new ProcessSampler(loopProcesses(stack));
  const [ordersDb, inventoryDb] = await connect(stack);
  const orderSamples: BacklogSample[] = [];
  const commandSamples: BacklogSample[] = [];
  let sampling = true;
  const runStart = Date.now();
  const backlogSampling = (async () => {
    while (sampling) {
      const atMs = Date.now() - runStart;
      const counts = await unfinishedCounts(ordersDb, inventoryDb);
      orderSamples.push({ atMs, unfinished: counts.orders });
      commandSamples.push({ atMs, unfinished: counts.commands });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  const countersOf = () =>
    readRequestCounts(
      {
        orders: { baseUrl: stack.orders.baseUrl, database: stack.databases.orders },
        inventory: { baseUrl: stack.inventory.baseUrl, database: stack.databases.inventory },
        loyalty: { baseUrl: stack.loyalty.baseUrl, database: stack.loyalty.database },
      },
      stack.serverUrl,
    );
  const countsBefore = await countersOf();
  await sampler.start();
  let load;
  try {
    load = await openModelLoad(offeredPerSec, durationMs, (index) => postOrder(stack.orders.baseUrl, orderBody(index), stack.tokens));
  } finally {
    sampling = false;
    await backlogSampling;
  }
  const accepted = load.requests.filter((request) => request.result.orderId);
  const scheduledAt = new Map(accepted.map((request) => [request.result.orderId!, request.scheduledAtMs]));
  const orderIds = [...scheduledAt.keys()];
  const failedRequests = load.requests.length - accepted.length;
  const shedRequests = load.requests.filter((request) => request.result.status === 503).length;
  const firstFailure = load.requests.find((request) => !request.result.orderId)?.result;

  const settled = await waitFor(
    async () => {
      const [{ pending }] = await queryTestDatabase<{ pending: number }>(
        stack.serverUrl,
        stack.databases.orders,
        "SELECT count(*)::int AS pending FROM orders WHERE id = ANY($1::uuid[]) AND status = 'PENDING'",
        [orderIds],
      );
      const [{ open }] = await queryTestDatabase<{ open: number }>(
        stack.serverUrl,
        stack.databases.inventory,
        "SELECT count(*)::int AS open FROM loyalty_commands WHERE order_id = ANY($1::uuid[]) AND status <> 'DONE'",
        [orderIds],
      );
      return pending === 0 && open === 0;
    },
    { timeoutMs: settleMs, intervalMs: 250, description: 'the run to settle' },
  ).catch(() => false);
  const observedEnd = Date.now();
  const usage = await sampler.stop();
  const countsAfter = await countersOf();
  await Promise.all([ordersDb.end(), inventoryDb.end()]);

  const finals = await queryTestDatabase<{ id: string; final_at: number }>(
    stack.serverUrl,
    stack.databases.orders,
    `SELECT id::text, (extract(epoch FROM updated_at) * 1000)::float8 AS final_at FROM orders WHERE id = ANY($1::uuid[]) AND status IN ('RESERVED', 'REJECTED')`,
    [orderIds],
  );
  const finalAt = new Map(finals.map((row) => [row.id, row.final_at]));
  // The latency's end is orders.updated_at, which the status change sets (TypeORM's
  // @UpdateDateColumn) at its transaction's start. A final order whose updated_at was never moved
  // past its creation would make a false, tiny latency: counted and reported, never hidden.
  const [{ stale }] = await queryTestDatabase<{ stale: number }>(
    stack.serverUrl,
    stack.databases.orders,
    "SELECT count(*)::int AS stale FROM orders WHERE id = ANY($1::uuid[]) AND status IN ('RESERVED', 'REJECTED') AND updated_at <= created_at",
    [orderIds],
  );
  if (stale > 0) log(`e2e WARNING: ${stale} final orders have updated_at <= created_at; their latency is not measurable`);
  // An order never finished counts with the time observed so far: a lower bound, never left out.
  const latencies = orderIds.map((id) => (finalAt.get(id) ?? observedEnd) - scheduledAt.get(id)!);
  const latency = summarizeLatencies(latencies);
  // The answer of POST /orders, from the same scheduled instant: how much of the latency is the
  // HTTP side queueing rather than the loop behind it.
  const answer = summarizeLatencies(accepted.map((request) => request.respondedAtMs - request.scheduledAtMs));
  const steadyFrom = load.startedAtMs + durationMs / 3;
  const steadyTo = load.startedAtMs + durationMs;
  const achievedPerSec =
    finals.filter((row) => row.final_at >= steadyFrom && row.final_at <= steadyTo).length / ((steadyTo - steadyFrom) / 1000);
  const ordersVerdict = backlogVerdict(orderSamples, offeredPerSec);
  const commandsVerdict = backlogVerdict(commandSamples, offeredPerSec);
  const processes: Record<string, ProcessCost> = Object.fromEntries(
    APPS.map((name) => [name, { cpuMsPerOrder: usage[name].cpuMs / Math.max(1, finals.length), peakRssMb: usage[name].peakRssMb }]),
  );
  const cpu = loopCpu(
    Object.fromEntries(Object.entries(usage).map(([name, { cpuMs }]) => [name, cpuMs])),
    finals.length,
    cpus().length,
    LOAD_GENERATOR,
  );
  const run: E2eRun = {
    offeredPerSec,
    durationSec: durationMs / 1000,
    achievedPerSec,
    acceptedPerSec: accepted.length / (durationMs / 1000),
    p50Ms: latency.p50,
    p95Ms: latency.p95,
    p99Ms: latency.p99,
    maxMs: latency.max,
    answerP50Ms: answer.p50,
    answerP99Ms: answer.p99,
    backlogGrowing: ordersVerdict.growing || commandsVerdict.growing,
    backlogSlopePerSec: Math.max(ordersVerdict.slopePerSec, commandsVerdict.slopePerSec),
    sent: load.requests.length,
    accepted: accepted.length,
    finished: finals.length,
    failedRequests,
    shedRequests,
    shedBySignal: shedBetween(countsBefore, countsAfter),
    unfinished: orderIds.length - finals.length,
    finalTimestampNotMoved: stale,
    stages: await stageLatencies(stack.serverUrl, stack.databases, orderIds),
    processes,
    cpu,
    ...requestsPerOrder(countsBefore, countsAfter, finals.length),
  };
  log(
    `e2e ${offeredPerSec}/s for ${durationMs / 1000} s: achieved ${run.achievedPerSec.toFixed(1)}/s, p50 ${Math.round(run.p50Ms)} ms, ` +
      `p99 ${Math.round(run.p99Ms)} ms (201 answered: p50 ${Math.round(answer.p50)} ms, p99 ${Math.round(answer.p99)} ms), backlog ${run.backlogGrowing ? 'growing' : 'flat'} (${run.backlogSlopePerSec.toFixed(1)}/s), ` +
      `${run.unfinished} unfinished${settled ? '' : ' (did not settle)'}, ${failedRequests} failed requests (${shedRequests} shed${shedRequests > 0 ? `: ${describeShed(run.shedBySignal)}` : ''})` +
      `${firstFailure ? ` (first: ${firstFailure.status} ${firstFailure.error})` : ''}, generator lag max ${Math.round(load.maxSendLagMs)} ms; ` +
      `CPU ${cpu.totalMsPerOrder.toFixed(2)} ms/order (${Object.entries(cpu.byProcess)
        .map(([name, value]) => `${name} ${value.toFixed(2)}`)
        .join(', ')}; load generator ${cpu.loadGeneratorMsPerOrder.toFixed(2)} apart), ceiling ${Math.round(cpu.ceilingPerSec)}/s; ` +
      `per order: Kafka ${Object.entries(run.kafkaRequestsPerOrder)
        .map(([api, value]) => `${api} ${value.toFixed(2)}`)
        .join(', ')}; Postgres ${run.postgres.transactionsPerOrder.toFixed(1)} transactions, ` +
      `${run.postgres.statementsPerOrder.toFixed(1)} statements, ${run.postgres.roundTripsPerOrder.toFixed(1)} round trips`,
  );
  return run;
}
