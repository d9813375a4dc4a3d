// CPU cost of the load generator's own requests: `POST /orders` as the open-model generator sends
// it (a token, an Idempotency-Key, a small JSON body), through `fetch` and through node:http over
// keep-alive connections (keep-alive-post.ts, what the bench uses). The server answers a canned 201
// from a child process, so only the client's CPU is counted: this process's user + system CPU per
// request, at a fixed rate, each client run alternately after a warm-up.
// Run after a build: `node dist/bench/load-generator-cost.js`.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { keepAlivePost } from './keep-alive-post.js';
import { openModelLoad } from './open-model-load.js';

const RATES_PER_SEC = [300, 1200];
const SECONDS = 5;
const ROUNDS = 3;
const TOKEN = `Bearer ${'x'.repeat(420)}`;
const BODY = JSON.stringify({ items: [{ sku: 'BENCH-SKU-01', quantity: 2 }] });
const ANSWER = JSON.stringify({ id: randomUUID(), status: 'PENDING', items: [{ sku: 'BENCH-SKU-01', quantity: 2, unitPriceCents: 1000 }] });

type Client = (url: URL) => Promise<number>;

const CLIENTS: Record<string, Client> = {
  fetch: async (url) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), authorization: TOKEN },
      body: BODY,
      signal: AbortSignal.timeout(60_000),
    });
    await response.text();
    return response.status;
  },
  'node:http, keep-alive': async (url) => {
    const outcome = await keepAlivePost(url, { 'idempotency-key': randomUUID(), authorization: TOKEN }, BODY, 60_000);
    return 'status' in outcome ? outcome.status : 0;
  },
};

function serve(): void {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(201, { 'content-type': 'application/json' }).end(ANSWER));
  });
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as AddressInfo).port));
}

/** Client CPU in µs per request over one run at `rate`; throws if any request failed. */
async function measure(client: Client, url: URL, rate: number): Promise<number> {
  const before = process.cpuUsage();
  const result = await openModelLoad(rate, SECONDS * 1000, () => client(url));
  const used = process.cpuUsage(before);
  const failed = result.requests.filter((request) => request.result !== 201).length;
  if (failed > 0) throw new Error(`${failed} of ${result.requests.length} requests failed`);
  return (used.user + used.system) / result.requests.length;
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) => child.once('message', (message) => resolve(message as number)));
  const url = new URL(`http://127.0.0.1:${port}/orders`);
  try {
    for (const client of Object.values(CLIENTS)) await measure(client, url, RATES_PER_SEC[0]);
    const rows: string[] = [];
    for (const rate of RATES_PER_SEC) {
      const samples: Record<string, number[]> = Object.fromEntries(Object.keys(CLIENTS).map((name) => [name, []]));
      for (let round = 0; round < ROUNDS; round += 1)
        for (const [name, client] of Object.entries(CLIENTS)) samples[name].push(await measure(client, url, rate));
      for (const [name, values] of Object.entries(samples))
        rows.push(`| ${name} | ${rate} | ${values.map((value) => value.toFixed(0)).join(' / ')} |`);
    }
    console.log(
      `Load generator's CPU per request (${SECONDS} s per run, ${ROUNDS} runs per client and rate, alternated), node ${process.version}\n`,
    );
    console.log('| client | requests/s | CPU µs per request, each run |\n|---|---:|---|');
    console.log(rows.join('\n'));
  } finally {
    child.kill();
  }
}

if (process.argv.includes('--serve')) serve();
else await main();
