// The relay figure of `npm run bench` (bench/run-bench.ts), also runnable alone with
// `node dist/bench/outbox-relay.bench.js` after a build: what durability costs the outbox relay, as ratios against a baseline measured in
// the same run, on the same broker and machine. Absolute numbers depend on the machine; compare
// the ratios between runs. Nothing here asserts a speed (see docs/performance.md, "How to measure").
//
// 1. Throughput. Baseline: a raw kafkajs idempotent producer sends N pre-built messages in awaited
//    sendBatch calls of BENCH_BATCH_SIZE, acks -1. Relay: OutboxRelay.publishBatches drains N pending
//    outbox rows with the same batch size, OUTBOX_BATCHES_PER_TRANSACTION batches per transaction,
//    as runCycle does (lock, read ahead, send, mark, commit). One warm-up, then
//    BENCH_REPETITIONS of each, interleaved; medians in messages/s, and relay / baseline.
// 2. Latency. One row committed at a time, from the writer's commit returning to Kafka's ack of the
//    relay's produce request, the relay driven by its scheduler: LISTEN/NOTIFY on, then poll only.
//
// Everything runs against a throw-away orders database (its name contains `test`) and a throw-away
// topic, both removed at the end.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { ScheduleModule } from '@nestjs/schedule';
import { Test, type TestingModule } from '@nestjs/testing';
import { Kafka, type Message, type Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { type EnvConfig, loadConfig } from '@libs/config';
import { OrderEvents } from '@libs/contracts';
import { migrateDatabase, DatabaseModule, TransactionContext } from '@libs/database';
import { createIdempotentProducer, createKafka, ensureTopics, KafkaModule } from '@libs/kafka';
import { MetricsModule } from '@libs/metrics';
import { createOrdersDataSource } from '@apps/orders';
import { type OutboxEvent, outboxEnv, OutboxModule, OutboxRelay, OutboxWriter } from '@libs/outbox';
import { relayBenchEnv } from './bench.env.js';
import { createTestDatabase, dropTestDatabase, localEnvironment, uniqueName, waitFor } from '@tools/local-stack';

const benchEnv = {
  ...relayBenchEnv,
  /** The relay's own variable: the poll interval of both latency runs. */
  OUTBOX_POLL_INTERVAL_MS: outboxEnv.OUTBOX_POLL_INTERVAL_MS,
  /** The relay's own variable: 1 measures the unpipelined relay (one batch per transaction). */
  OUTBOX_BATCHES_PER_TRANSACTION: outboxEnv.OUTBOX_BATCHES_PER_TRANSACTION,
};
type BenchConfig = EnvConfig<typeof benchEnv>;

const PARTITIONS = 3;
/** Rows per writer transaction when filling the outbox; filling is set-up, never timed. */
const FILL_ROWS_PER_TRANSACTION = 500;

const log = (text: string) => console.error(`[bench] ${text}`);

interface Summary {
  median: number;
  min: number;
  max: number;
}

function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** An `OrderCreated`-shaped event, one aggregate per event as in the orders app. */
function orderCreated(topic: string, n: number): OutboxEvent {
  const orderId = randomUUID();
  return {
    // The bench's own topic: the same declaration, published where this run reads.
    message: { ...OrderEvents.OrderCreated, topic },
    aggregateType: 'order',
    aggregateId: orderId,
    payload: {
      orderId,
      customerId: `customer-${n % 100}`,
      items: [
        { sku: 'SKU-RED-MUG', quantity: 2, unitPriceCents: 1250 },
        { sku: 'SKU-BLUE-PLATE', quantity: 1, unitPriceCents: 499 },
      ],
      totalCents: 2999,
      createdAt: new Date().toISOString(),
    },
  };
}

/**
 * Broker acknowledgements as they arrive: kafkajs reports each completed request of a producer
 * through its REQUEST instrumentation event, and a completed Produce request with acks -1 is the
 * ack. Wraps `kafka.producer` so that the relay's own producer, created deep inside
 * OutboxPublisher, reports too.
 */
class AckClock {
  readonly acks: number[] = [];

  observe(kafka: Kafka): Kafka {
    const createProducer = kafka.producer.bind(kafka);
    kafka.producer = (options) => {
      const producer = createProducer(options);
      producer.on(producer.events.REQUEST, ({ payload }) => {
        if (payload.apiName === 'Produce') this.acks.push(performance.now());
      });
      return producer;
    };
    return kafka;
  }
}

interface Run {
  config: BenchConfig;
  serverUrl: string;
  brokers: string[];
  database: string;
  topic: string;
}

/**
 * The outbox as the orders app wires it, with `outbox` as its environment. The Kafka client is
 * passed in, replacing KafkaModule's, so that the latency runs can watch the relay's producer.
 */
async function outboxApp(run: Run, kafka: Kafka, outbox: Record<string, string>): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      DatabaseModule.forRoot({
        useFactory: () => createOrdersDataSource({ DATABASE_URL: run.serverUrl, DATABASE_NAME: run.database, DATABASE_POOL_SIZE: 4 }),
      }),
      KafkaModule.forRoot({ useFactory: () => ({ brokers: run.brokers, clientId: 'outbox-bench' }) }),
      MetricsModule.forRoot({ service: 'outbox-bench' }),
      ScheduleModule.forRoot(),
      OutboxModule.forRoot(
        loadConfig(outboxEnv, {
          OUTBOX_BATCH_SIZE: String(run.config.BENCH_BATCH_SIZE),
          OUTBOX_BATCHES_PER_TRANSACTION: String(run.config.OUTBOX_BATCHES_PER_TRANSACTION),
          ...outbox,
        }),
      ),
      OutboxModule.forFeature(),
    ],
  })
    .overrideProvider(Kafka)
    .useValue(kafka)
    .compile();
  await moduleRef.init();
  return moduleRef;
}

/** Empties the outbox, then writes `count` events through OutboxWriter, as use cases do. */
async function fillOutbox(moduleRef: TestingModule, topic: string, count: number): Promise<void> {
  const tx = moduleRef.get(TransactionContext);
  const writer = moduleRef.get(OutboxWriter);
  // Every repetition starts from the same table: no dead tuples left by the previous one's marks.
  await moduleRef.get(DataSource).query('TRUNCATE outbox_messages');
  for (let start = 0; start < count; start += FILL_ROWS_PER_TRANSACTION) {
    await tx.run(async () => {
      for (let n = start; n < Math.min(count, start + FILL_ROWS_PER_TRANSACTION); n += 1) await writer.add(orderCreated(topic, n));
    });
  }
}

/** The rows as Kafka messages, built the way OutboxPublisher builds them, cut into batches. */
async function prebuiltBatches(moduleRef: TestingModule, batchSize: number): Promise<Message[][]> {
  const rows: { key: string; payload: unknown; headers: Record<string, string> }[] = await moduleRef
    .get(DataSource)
    .query('SELECT key, payload, headers FROM outbox_messages ORDER BY seq');
  const messages = rows.map((row) => ({ key: row.key, value: JSON.stringify(row.payload), headers: row.headers }));
  const batches: Message[][] = [];
  for (let start = 0; start < messages.length; start += batchSize) batches.push(messages.slice(start, start + batchSize));
  return batches;
}

/** Baseline: awaited sendBatch calls, one at a time, as the relay sends. Returns milliseconds. */
async function sendBaseline(producer: Producer, topic: string, batches: Message[][]): Promise<number> {
  const started = performance.now();
  for (const messages of batches) await producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages }] });
  return performance.now() - started;
}

/** Relay: transactions until one ends without more rows due, as runCycle does. Returns milliseconds. */
async function drainWithRelay(moduleRef: TestingModule, expected: number, batchesPerTransaction: number): Promise<number> {
  const relay = moduleRef.get(OutboxRelay);
  let published = 0;
  const started = performance.now();
  for (;;) {
    const transaction = await relay.publishBatches(batchesPerTransaction);
    if (!transaction.leader || transaction.failed > 0)
      throw new Error(`Relay transaction did not publish cleanly: ${JSON.stringify(transaction)}`);
    published += transaction.published;
    if (!transaction.moreDue) break;
  }
  const elapsed = performance.now() - started;
  // A correctness check, not a timing one: a run that skipped rows would report a false speed.
  const [{ pending }] = await moduleRef
    .get(DataSource)
    .query('SELECT count(*)::int AS pending FROM outbox_messages WHERE published_at IS NULL');
  if (published !== expected || pending !== 0)
    throw new Error(`Relay published ${published} of ${expected} rows, ${pending} still pending`);
  return elapsed;
}

async function measureThroughput(run: Run): Promise<{ baseline: number[]; relay: number[] }> {
  const {
    BENCH_MESSAGES: count,
    BENCH_BATCH_SIZE: batchSize,
    BENCH_REPETITIONS: repetitions,
    OUTBOX_BATCHES_PER_TRANSACTION: perTransaction,
  } = run.config;
  const baselineKafka = createKafka({ brokers: run.brokers, clientId: 'outbox-bench-baseline' });
  const producer = createIdempotentProducer(baselineKafka);
  // The relay is only called here: no interval, no LISTEN, nothing in the background.
  const moduleRef = await outboxApp(run, createKafka({ brokers: run.brokers, clientId: 'outbox-bench-relay' }), {
    OUTBOX_RELAY_ENABLED: 'false',
    OUTBOX_LISTEN_ENABLED: 'false',
  });
  try {
    await producer.connect();
    const rate = (ms: number) => count / (ms / 1000);
    const baseline: number[] = [];
    const relay: number[] = [];
    // Repetition 0 warms up both (connections, producer ids, JIT, Postgres caches) and is dropped.
    // Baseline and relay alternate, and which goes first too, so a slow phase of the machine or
    // the fill's after-effects (WAL flushes) fall on both alike.
    let batches: Message[][] = [];
    for (let repetition = 0; repetition <= repetitions; repetition += 1) {
      await fillOutbox(moduleRef, run.topic, count);
      if (repetition === 0) batches = await prebuiltBatches(moduleRef, batchSize);
      let baselineMs: number;
      let relayMs: number;
      if (repetition % 2 === 0) {
        baselineMs = await sendBaseline(producer, run.topic, batches);
        relayMs = await drainWithRelay(moduleRef, count, perTransaction);
      } else {
        relayMs = await drainWithRelay(moduleRef, count, perTransaction);
        baselineMs = await sendBaseline(producer, run.topic, batches);
      }
      const label = repetition === 0 ? 'warm-up' : `repetition ${repetition}/${repetitions}`;
      log(`${label}: baseline ${Math.round(rate(baselineMs))} msg/s, relay ${Math.round(rate(relayMs))} msg/s`);
      if (repetition > 0) {
        baseline.push(rate(baselineMs));
        relay.push(rate(relayMs));
      }
    }
    return { baseline, relay };
  } finally {
    await producer.disconnect().catch(() => undefined);
    await moduleRef.close();
  }
}

/** Commit-to-ack latencies in milliseconds, with the relay driven by its real scheduler. */
async function measureLatency(run: Run, listen: boolean): Promise<number[]> {
  const { BENCH_LATENCY_SAMPLES: samples, OUTBOX_POLL_INTERVAL_MS: pollMs } = run.config;
  const clock = new AckClock();
  const kafka = clock.observe(createKafka({ brokers: run.brokers, clientId: `outbox-bench-latency-${listen ? 'listen' : 'poll'}` }));
  const moduleRef = await outboxApp(run, kafka, {
    OUTBOX_RELAY_ENABLED: 'true',
    OUTBOX_LISTEN_ENABLED: String(listen),
    OUTBOX_POLL_INTERVAL_MS: String(pollMs),
  });
  try {
    const tx = moduleRef.get(TransactionContext);
    const writer = moduleRef.get(OutboxWriter);
    const latencies: number[] = [];
    for (let sample = 0; sample <= samples; sample += 1) {
      // Not a wait for a condition: a random pause puts each commit at a random point of the poll
      // interval, so poll-only latency is sampled over the whole interval, not at one phase of it.
      await sleep(Math.random() * pollMs);
      const acksBefore = clock.acks.length;
      await tx.run(() => writer.add(orderCreated(run.topic, sample)));
      const committedAt = performance.now();
      const ackedAt = await waitFor(() => clock.acks[acksBefore], {
        timeoutMs: 3 * pollMs + 10_000,
        intervalMs: 2,
        description: `the Kafka ack of latency sample ${sample}`,
      });
      // Sample 0 warms up the relay's producer connection and is dropped.
      if (sample > 0) latencies.push(ackedAt - committedAt);
    }
    return latencies;
  } finally {
    await moduleRef.close();
  }
}

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (value: number) => `${number(value, value < 10 ? 2 : value < 100 ? 1 : 0)} ms`;

/** A Markdown table, padded so it also reads as plain text; the first column left, others right. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[column]))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)];
}

function printReport(
  config: BenchConfig,
  throughput: { baseline: number[]; relay: number[] },
  latency?: { listen: number[]; poll: number[] },
): void {
  const baseline = summarize(throughput.baseline);
  const relay = summarize(throughput.relay);
  const rates = (summary: Summary) => [number(summary.median), number(summary.min), number(summary.max)];
  const lines = [
    `Outbox relay benchmark: node ${process.version}, topic of ${PARTITIONS} partitions, idempotent producer, acks -1, 1 request in flight`,
    `N = ${config.BENCH_MESSAGES} messages per repetition, batch size ${config.BENCH_BATCH_SIZE}, ` +
      `relay: ${config.OUTBOX_BATCHES_PER_TRANSACTION} batch(es) per transaction, ` +
      `${config.BENCH_REPETITIONS} repetitions after 1 warm-up, baseline and relay interleaved`,
    '',
    ...table(
      ['throughput', 'median msg/s', 'min msg/s', 'max msg/s', 'ratio to baseline'],
      [
        ['baseline: kafkajs sendBatch of pre-built messages', ...rates(baseline), '1.00'],
        ['relay: publishBatches (lock, read ahead, send, mark, commit)', ...rates(relay), number(relay.median / baseline.median, 2)],
      ],
    ),
    '',
    `Cost of durability (lock, read, mark and commit in Postgres): ${number((1 / relay.median - 1 / baseline.median) * 1e6, 1)} µs per message, at the medians.`,
  ];
  if (latency) {
    const listen = summarize(latency.listen);
    const poll = summarize(latency.poll);
    const pollMs = config.OUTBOX_POLL_INTERVAL_MS;
    const times = (summary: Summary) => [ms(summary.median), ms(summary.min), ms(summary.max)];
    lines.push(
      '',
      ...table(
        [`commit to Kafka ack, ${config.BENCH_LATENCY_SAMPLES} samples each`, 'median', 'min', 'max', 'ratio to LISTEN'],
        [
          [`LISTEN/NOTIFY (poll every ${pollMs} ms as the floor)`, ...times(listen), '1.00'],
          [`poll only, every ${pollMs} ms`, ...times(poll), number(poll.median / listen.median, 1)],
        ],
      ),
    );
  }
  console.log(lines.join('\n'));
}

async function deleteTopic(brokers: string[], topic: string): Promise<void> {
  const admin = createKafka({ brokers, clientId: 'outbox-bench-admin' }).admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [topic] });
  } finally {
    await admin.disconnect();
  }
}

/** The relay's figures, for the suite: medians in messages/s and relay / baseline. */
export interface RelayBenchResult {
  baselinePerSec: number;
  relayPerSec: number;
  ratio: number;
  messages: number;
  batchSize: number;
  repetitions: number;
  latency?: { listenMedianMs: number; pollMedianMs: number };
}

/**
 * Runs the relay comparison on `serverUrl` and `brokers` (which must answer) with the BENCH_*
 * variables of `source` (default `process.env`), prints its report and returns the figures.
 */
export async function runRelayBench(
  serverUrl: string,
  brokers: string[],
  source: NodeJS.ProcessEnv = process.env,
): Promise<RelayBenchResult> {
  const config = loadConfig(benchEnv, source);
  let database: string | undefined;
  let topic: string | undefined;
  try {
    database = await createTestDatabase(serverUrl, 'outbox_bench');
    await migrateDatabase(
      createOrdersDataSource({ DATABASE_URL: serverUrl, DATABASE_NAME: database, DATABASE_POOL_SIZE: 2 }),
      serverUrl,
      database,
    );
    topic = uniqueName('bench.outbox-relay.v1').replace(/_/g, '-');
    await ensureTopics(createKafka({ brokers, clientId: 'outbox-bench-topics' }), [topic], PARTITIONS);
    const run: Run = { config, serverUrl, brokers, database, topic };
    log(`database ${database}, topic ${topic}`);

    const throughput = await measureThroughput(run);
    let latency: { listen: number[]; poll: number[] } | undefined;
    if (config.BENCH_LATENCY_SAMPLES > 0) {
      log(`latency: ${config.BENCH_LATENCY_SAMPLES} samples with LISTEN/NOTIFY`);
      const listen = await measureLatency(run, true);
      log(`latency: ${config.BENCH_LATENCY_SAMPLES} samples polling every ${config.OUTBOX_POLL_INTERVAL_MS} ms`);
      const poll = await measureLatency(run, false);
      latency = { listen, poll };
    }
    printReport(config, throughput, latency);
    const baselinePerSec = summarize(throughput.baseline).median;
    const relayPerSec = summarize(throughput.relay).median;
    return {
      baselinePerSec,
      relayPerSec,
      ratio: relayPerSec / baselinePerSec,
      messages: config.BENCH_MESSAGES,
      batchSize: config.BENCH_BATCH_SIZE,
      repetitions: config.BENCH_REPETITIONS,
      latency: latency && { listenMedianMs: summarize(latency.listen).median, pollMedianMs: summarize(latency.poll).median },
    };
  } finally {
    if (topic) await deleteTopic(brokers, topic).catch((error: Error) => log(`could not delete topic ${topic}: ${error.message}`));
    if (database) await dropTestDatabase(serverUrl, database);
  }
}

// Run alone (`node dist/bench/outbox-relay.bench.js`) against brokers that already answer.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const environment = localEnvironment();
    await runRelayBench(environment.DATABASE_URL!, environment.KAFKA_BROKERS!.split(','));
  } catch (error) {
    console.error(`[bench] ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  }
}
