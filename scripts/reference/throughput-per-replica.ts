// docs/scaling.md's table of what one replica of each app carried in the reference full run.
import { posix } from 'node:path';
import { LOOP_APPS } from '../../bench/bench-results.js';
import { REFERENCE_RUN, referenceRun } from './reference-run.js';

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => value.toFixed(1);

export function renderThroughputPerReplica(): string {
  const run = referenceRun();
  const { http, inbox, relay, e2e, machine } = run;
  const fixed = e2e.runs[0];
  const cpu = LOOP_APPS.map((app) => ({ app, ms: fixed.processes[app]?.cpuMsPerOrder ?? Number.NaN }));
  const rss = e2e.runs.flatMap((each) => LOOP_APPS.map((app) => each.processes[app]?.peakRssMb ?? Number.NaN)).filter(Number.isFinite);
  return [
    `From the ${run.mode} run of ${run.startedAt.slice(0, 10)}, [\`${REFERENCE_RUN}\`](${posix.relative('docs', REFERENCE_RUN)}), on ${machine.cpuCount} × ${machine.cpuModel}:`,
    '',
    '| what | measured | what it means for a replica |',
    '|---|---|---|',
    `| whole flow, one replica each | **${count(e2e.maxSustainablePerSec)} orders/s** sustained, ${count(e2e.drainPerSec)} orders/s draining a backlog | the system's rate on one small machine |`,
    `| orders, \`POST /orders\` with the outbox row | ${count(http.withOutboxPerSec)} requests/s at ${http.concurrency} concurrent clients (the insert and outbox row alone, without Nest: ${count(http.plainWithOutboxPerSec)}/s) | HTTP side of one orders replica |`,
    `| inventory, inbox consumer (batched) | ${count(inbox.inventoryPerSec)} messages/s (one by one: ${count(inbox.oneByOnePerSec)}/s; the same reservation in SQL without inbox and Nest, one by one: ${count(inbox.plainPerSec)}/s) | consumer side of one inventory replica |`,
    `| relay (one per database, see below) | ${count(relay.relayPerSec)} messages/s (raw kafkajs producer on the same batches: ${count(relay.baselinePerSec)}/s) | far above the rest: never the first bound |`,
    `| CPU per order at ${count(fixed.offeredPerSec)} orders/s | ${cpu.map(({ app, ms: value }) => `${app} ${ms(value)} ms`).join(', ')} | ${cpu
      .slice(0, 2)
      .map(({ app, ms: value }) => `~${count(1000 / value)} orders/s per dedicated core for ${app}`)
      .join(', ')} |`,
    `| peak memory (RSS) | ${count(Math.min(...rss))} to ${count(Math.max(...rss))} MB per app across the run's rates | the requests and limits in [\`deploy/k8s\`](../deploy/k8s/base) |`,
  ].join('\n');
}
