// CPU cost of one refusal at the door, against a baseline in the same run: past capacity most
// requests are refused, and what each refusal costs the orders process is taken from the orders
// it is finishing. The orders app is started as the bench starts it, with its backlog bound
// (ORDERS_SHED_PENDING_MAX) at 1 and no inventory to answer, so after two orders every
// `POST /orders` is refused with 503 at the door. The baseline is a bare node:http server in a
// process of its own answering the same 503 to the same requests: what any Node server pays per
// request (parsing, the socket write, the kernel's loopback TCP), so the difference is what the
// framework and the hooks before the door add. Both are driven by the load generator's own client
// at fixed rates, alternated; per request: the server process's user + system CPU (/proc) and the
// generator's (this process). Run after a build: `node dist/bench/refusal-cost.js`; BENCH_APP_ENV
// applies to the orders app.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { problemBody, RequestErrorCodes } from '@libs/http';
import { waitFor } from '@tools/local-stack';
import { benchAppEnv, benchServices, provisionInfrastructure, releaseInfrastructure } from './bench-infrastructure.js';
import { openModelLoad } from './open-model-load.js';
import { CustomerTokens, orderBody, postOrder, seedBenchPrices } from './order-requests.js';
import { ProcessSampler } from './process-usage.js';

const RATES_PER_SEC = [1000, 2000];
const SECONDS = 8;
const ROUNDS = 3;
/** What the door answers, built as the door builds it (a sample detail): the baseline writes the same bytes per answer. */
const REFUSAL = JSON.stringify(
  problemBody({
    status: 503,
    code: RequestErrorCodes.OVERLOADED,
    detail:
      'Too much work is waiting (in_flight is 98, past its bound of 97); nothing was done, send the same request again after Retry-After',
  }),
);

const log = (text: string) => console.error(`[refusal-cost] ${text}`);

function serve(): void {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' }).end(REFUSAL));
  });
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
}

interface Target {
  baseUrl: string;
  pid: number;
}

/** Server and generator CPU in µs per request over one run at `rate`; throws unless every request was refused. */
async function measure(target: Target, tokens: CustomerTokens, rate: number): Promise<{ server: number; generator: number }> {
  // The bench's own request, as the end-to-end figure sends it: a token, an Idempotency-Key, a small body.
  const send = async (index: number) => (await postOrder(target.baseUrl, orderBody(index), tokens)).status;
  const sampler = new ProcessSampler({ server: target.pid });
  await sampler.start();
  const before = process.cpuUsage();
  const result = await openModelLoad(rate, SECONDS * 1000, send);
  const generator = process.cpuUsage(before);
  const server = (await sampler.stop()).server.cpuMs;
  const answered = result.requests.filter((request) => request.result === 503).length;
  if (answered < result.requests.length)
    throw new Error(`${result.requests.length - answered} of ${result.requests.length} requests were not refused`);
  return { server: (server * 1000) / result.requests.length, generator: (generator.user + generator.system) / result.requests.length };
}

async function main(): Promise<void> {
  const infrastructure = await provisionInfrastructure(log);
  const services = benchServices(infrastructure);
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: 'inherit' });
  const baselinePort = new Promise<number>((resolve) => child.once('message', (message) => resolve(message as number)));
  try {
    const database = await services.createDatabase('bench_refusal');
    const orders = await services.start({
      service: 'orders',
      database,
      env: { ...benchAppEnv(), ORDERS_SHED_PENDING_MAX: '1', LOAD_SHED_SAMPLE_INTERVAL_MS: '50' },
    });
    await seedBenchPrices(infrastructure.serverUrl, database);
    const tokens = await CustomerTokens.sign(infrastructure.issuer);
    // Two orders stay pending (no inventory answers), past the bound of 1: the door closes within a sample interval.
    let n = 0;
    await waitFor(async () => (await postOrder(orders.baseUrl, orderBody((n += 1)), tokens)).status === 503, {
      timeoutMs: 30_000,
      intervalMs: 60,
      description: "the orders app's door to close",
    });
    const port = await baselinePort;
    const targets: Record<string, Target> = {
      'orders app (the door)': {
        baseUrl: orders.baseUrl,
        pid: orders.process.child.pid!,
      },
      'bare node:http': { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid! },
    };
    for (const target of Object.values(targets)) await measure(target, tokens, RATES_PER_SEC[0]);
    const rows: string[] = [];
    for (const rate of RATES_PER_SEC) {
      const samples: Record<string, { server: number; generator: number }[]> = Object.fromEntries(
        Object.keys(targets).map((name) => [name, []]),
      );
      for (let round = 0; round < ROUNDS; round += 1)
        for (const [name, target] of Object.entries(targets)) samples[name].push(await measure(target, tokens, rate));
      for (const [name, values] of Object.entries(samples))
        rows.push(
          `| ${name} | ${rate} | ${values.map((value) => value.server.toFixed(0)).join(' / ')} | ${values.map((value) => value.generator.toFixed(0)).join(' / ')} |`,
        );
    }
    console.log(
      `CPU per refused request (${SECONDS} s per run, ${ROUNDS} runs per server and rate, alternated), node ${process.version}\n`,
    );
    console.log('| server | requests/s | server CPU µs per request, each run | load generator CPU µs per request |\n|---|---:|---|---|');
    console.log(rows.join('\n'));
  } finally {
    child.kill();
    await services.tearDown();
    await releaseInfrastructure(infrastructure);
  }
}

if (process.argv.includes('--serve')) serve();
else await main();
