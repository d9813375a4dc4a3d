// HTTP figure: `POST /orders` requests/s at the same concurrency against (1) the real orders app
// (order + outbox row in one transaction, its relay running), and the plain baselines of
// plain-orders-server.ts: (2) the insert alone, (3) the insert with the outbox row, (4) a naive dual
// write. Each server is a process of its own, so the load generator (this process) never shares
// its event loop with the server it measures.
import { join } from 'node:path';
import { createKafka, ensureTopics } from '@app/kafka';
import { freePort, migrateServiceDatabase, NodeProcess, type ServiceSet, uniqueName } from '@tools/local-stack';
import { benchAppEnv, type BenchInfrastructure } from './bench-infrastructure.js';
import { closedLoop, type ClosedLoopResult } from './closed-loop-load.js';
import { CustomerTokens, orderBody, postOrder, seedBenchPrices } from './order-requests.js';

export interface HttpBenchOptions {
  concurrency: number;
  durationMs: number;
  warmUpMs: number;
}

export interface HttpBenchResult {
  withOutboxPerSec: number;
  withoutOutboxPerSec: number;
  plainWithOutboxPerSec: number;
  dualWritePerSec: number;
}

async function measure(
  name: string,
  baseUrl: string,
  tokens: CustomerTokens,
  options: HttpBenchOptions,
  log: (text: string) => void,
): Promise<ClosedLoopResult> {
  const send = async (n: number) => {
    const posted = await postOrder(baseUrl, orderBody(n), tokens);
    return posted.status === 201 ? undefined : `${posted.status} ${posted.error ?? ''}`;
  };
  await closedLoop(send, options.concurrency, options.warmUpMs);
  const result = await closedLoop(send, options.concurrency, options.durationMs);
  log(
    `http ${name}: ${Math.round(result.perSec)} requests/s (${result.failed} failed${result.firstError ? `, first: ${result.firstError}` : ''})`,
  );
  if (result.completed === 0) throw new Error(`http ${name}: no request succeeded; first error ${result.firstError}`);
  return result;
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
  // Every server verifies the token against the run's issuer: the same cost on both sides.
  const tokens = await CustomerTokens.sign(infrastructure.issuer);
  const withOutbox = await measure('orders app (with outbox)', orders.baseUrl, tokens, options, log);
  await orders.stop();

  const rates: Record<string, number> = {};
  for (const mode of ['insert', 'outbox', 'dual-write'] as const) {
    const server = await plainServer(infrastructure, services, mode, topic);
    try {
      rates[mode] = (await measure(`plain ${mode}`, server.baseUrl, tokens, options, log)).perSec;
    } finally {
      await server.process.stop();
    }
  }
  const admin = createKafka({ brokers: infrastructure.brokers, clientId: 'bench-http-cleanup' }).admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  return {
    withOutboxPerSec: withOutbox.perSec,
    withoutOutboxPerSec: rates.insert,
    plainWithOutboxPerSec: rates.outbox,
    dualWritePerSec: rates['dual-write'],
  };
}
