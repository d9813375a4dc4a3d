// HTTP figure: `POST /orders` requests/s at the same concurrency against (1) the real orders app
// (order + outbox row in one transaction, its relay running), and the plain baselines of
// plain-orders-server.ts: (2) the insert alone, (3) the insert with the outbox row, (4) a naive dual
// write. Each server is a process of its own, so the load generator (this process) never shares
// its event loop with the server it measures. All four run together and are measured in
// interleaved rounds, each figure the median of its rounds: measured one after the other, the
// orders app, whose JIT warms for far longer than a plain server's, would draw a different figure
// each run (docs/decisions/0018-figures-taken-after-the-warm-up.md).
import { join } from 'node:path';
import pg from 'pg';
import { databaseUrl } from '@libs/database';
import { createKafka, ensureTopics } from '@libs/kafka';
import { freePort, migrateServiceDatabase, NodeProcess, type ServiceSet, uniqueName, waitFor } from '@tools/local-stack';
import { benchAppEnv, type BenchInfrastructure } from './bench-infrastructure.js';
import { closedLoop } from './closed-loop-load.js';
import { roundOrder } from './interleaved-rounds.js';
import { CustomerTokens, orderBody, postOrder, seedBenchPrices } from './order-requests.js';
import { median } from './percentiles.js';

export interface HttpBenchOptions {
  concurrency: number;
  /** Length of one round of one server. */
  durationMs: number;
  /** Load on each server before the first round, not measured. */
  warmUpMs: number;
  /** Rounds of every server, interleaved: the figure of each is the median of its rounds. */
  rounds: number;
}

/** The servers measured, by the name each round's figures are kept under. */
const SERVERS = ['orders', 'insert', 'outbox', 'dualWrite'] as const;
type ServerName = (typeof SERVERS)[number];

export interface HttpBenchResult {
  withOutboxPerSec: number;
  withoutOutboxPerSec: number;
  plainWithOutboxPerSec: number;
  dualWritePerSec: number;
  /** Each server's requests/s in each round, in round order: the medians above and their spread. */
  perRound: Record<ServerName, number[]>;
}

/** Closed-loop `POST /orders` against `baseUrl` for `durationMs`: the requests answered 201 per second. Throws when none was. */
async function load(
  name: string,
  baseUrl: string,
  tokens: CustomerTokens,
  options: { concurrency: number; durationMs: number },
  log: (text: string) => void,
): Promise<number> {
  const send = async (n: number) => {
    const posted = await postOrder(baseUrl, orderBody(n), tokens);
    return posted.status === 201 ? undefined : `${posted.status} ${posted.error ?? ''}`;
  };
  const result = await closedLoop(send, options.concurrency, options.durationMs);
  if (result.completed === 0) throw new Error(`http ${name}: no request succeeded; first error ${result.firstError}`);
  if (result.failed > 0) log(`http ${name}: ${result.failed} requests failed (first: ${result.firstError})`);
  return result.perSec;
}

async function plainServer(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  mode: 'insert' | 'outbox' | 'dual-write',
  topic: string,
): Promise<{ process: NodeProcess; baseUrl: string }> {
  const database = await services.createDatabase(`bench_http_${mode.replace('-', '_')}`);
  await migrateServiceDatabase('orders', infrastructure.serverUrl, database);
  await seedBenchPrices(infrastructure.serverUrl, database);
  const port = await freePort();
  const process_ = new NodeProcess({
    name: `plain-${mode}`,
    entry: join(infrastructure.repoRoot, 'dist/bench/plain-orders-server.js'),
    cwd: infrastructure.repoRoot,
    env: {
      PATH: process.env.PATH,
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
      BENCH_PLAIN_MODE: mode,
      BENCH_TOPIC: topic,
      DATABASE_URL: infrastructure.serverUrl,
      DATABASE_NAME: database,
      KAFKA_BROKERS: infrastructure.brokers.join(','),
      PORT: String(port),
      // The run's issuer: the plain servers verify the token as the orders app does.
      ...infrastructure.authEnv.orders,
      // The dual-write baseline produces to a bench topic of its own: as the bench's own clients do (SASL, local `admin`).
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          (entry): entry is [string, string] => /^KAFKA_(SASL|TLS)_/.test(entry[0]) && entry[1] !== undefined,
        ),
      ),
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await process_.waitUntilHealthy(`${baseUrl}/health`, 30_000);
  } catch (error) {
    await process_.stop();
    throw error;
  }
  return { process: process_, baseUrl };
}

export async function runHttpBench(
  infrastructure: BenchInfrastructure,
  services: ServiceSet,
  options: HttpBenchOptions,
  log: (text: string) => void,
): Promise<HttpBenchResult> {
  const topic = uniqueName('bench.plain-orders.v1').replace(/_/g, '-');
  await ensureTopics(createKafka({ brokers: infrastructure.brokers, clientId: 'bench-http-topics' }), [topic], 3);

  const ordersDb = await services.createDatabase('bench_http_orders');
  // No inventory answers these orders, so they all stay PENDING: once ORDERS_SHED_PENDING_MAX of them
  // are, the default bound would shed every request. This figure is the request path's cost (the
  // in-flight door included); shedding for a backlog is the overload section's.
  const orders = await services.start({
    service: 'orders',
    database: ordersDb,
    env: { ...benchAppEnv(), ORDERS_SHED_PENDING_MAX: '1000000' },
  });
  await seedBenchPrices(infrastructure.serverUrl, ordersDb);
  const plain: { process: NodeProcess; baseUrl: string }[] = [];
  const outbox = new pg.Client({ connectionString: databaseUrl(infrastructure.serverUrl, ordersDb), application_name: 'bench-http' });
  await outbox.connect();
  try {
    for (const mode of ['insert', 'outbox', 'dual-write'] as const) plain.push(await plainServer(infrastructure, services, mode, topic));
    const baseUrls: Record<ServerName, string> = {
      orders: orders.baseUrl,
      insert: plain[0].baseUrl,
      outbox: plain[1].baseUrl,
      dualWrite: plain[2].baseUrl,
    };
    // Every server verifies the token against the run's issuer: the same cost on both sides.
    const tokens = await CustomerTokens.sign(infrastructure.issuer);
    // The orders app's relay publishes what a round wrote; it runs during the app's own rounds, as
    // deployed, but must not take the CPU of the next server's.
    const relayCaughtUp = () =>
      waitFor(async () => (await outbox.query('SELECT 1 FROM outbox_messages WHERE published_at IS NULL LIMIT 1')).rowCount === 0, {
        timeoutMs: 60_000,
        intervalMs: 50,
        description: "the orders app's relay to publish its outbox",
      });
    for (const name of SERVERS) {
      await load(name, baseUrls[name], tokens, { concurrency: options.concurrency, durationMs: options.warmUpMs }, log);
      if (name === 'orders') await relayCaughtUp();
    }
    const perRound = Object.fromEntries(SERVERS.map((name) => [name, [] as number[]])) as Record<ServerName, number[]>;
    for (let round = 0; round < options.rounds; round += 1) {
      for (const name of roundOrder(SERVERS, round)) {
        perRound[name].push(await load(name, baseUrls[name], tokens, options, log));
        if (name === 'orders') await relayCaughtUp();
      }
    }
    for (const name of SERVERS)
      log(`http ${name}: median ${Math.round(median(perRound[name]))} requests/s (rounds: ${perRound[name].map(Math.round).join(', ')})`);
    return {
      withOutboxPerSec: median(perRound.orders),
      withoutOutboxPerSec: median(perRound.insert),
      plainWithOutboxPerSec: median(perRound.outbox),
      dualWritePerSec: median(perRound.dualWrite),
      perRound,
    };
  } finally {
    await outbox.end();
    await orders.stop();
    await Promise.all(plain.map((server) => server.process.stop()));
    const admin = createKafka({ brokers: infrastructure.brokers, clientId: 'bench-http-cleanup' }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}
